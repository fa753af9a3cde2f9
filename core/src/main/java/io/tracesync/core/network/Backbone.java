package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The backbone of a network solved in regions ({@link RegionalSync}): the links between regions — all of them, or
 * per pair of regions the {@code perPair} lightest by the options' weight — and, for the clock of every reference a
 * region answers to (its components' own, or the network's), a node of its own, its <em>hub</em> (named
 * {@link #HUB} + the reference, after every node name). Each end u of a link held is tied to the hub of its region
 * factor's reference by a link made of that factor ({@link #tie}); the backbone then gives every end a factor to
 * the network's reference.
 */
public final class Backbone {

    /** Prefix of a hub's name: sorts after every node name, which therefore may not start with it. */
    public static final String HUB = "\uffff";

    private final NetworkOptions options;
    private final int perPair;
    /** Every link between regions, by its key; by pair of regions, those that take part, lightest first. */
    private final Map<LinkKey, LinkEstimate> crossing = new HashMap<>();
    private final Map<String, TreeSet<Ranked>> pairs = new HashMap<>();
    private final Map<LinkKey, Ranked> ranks = new HashMap<>();
    /** The links between regions held, how many of them end at each node, and each end's tie. */
    private final Set<LinkKey> held = new HashSet<>();
    private final Map<String, Integer> ends = new HashMap<>();
    private final Map<String, LinkKey> ties = new HashMap<>();
    /** Each node's latest region factor, tied while the node ends a link held. */
    private final Map<String, NodeFactor> regionFactors = new HashMap<>();
    private final NetworkSync network;

    /**
     * The pinned reference, if any, is pinned as its hub: its clock whatever its region's answer. Otherwise a
     * component's reference is its node with the most links, hubs aside ({@link ReferenceRule#MOST_LINKS}, whatever
     * the options' rule): the ends tied to the hub of the last answer's reference make that hub the centroid, which
     * would keep it whatever the links.
     */
    public Backbone(NetworkOptions options, int perPair) {
        if (perPair < 0) {
            throw new IllegalArgumentException("links per pair of regions must be >= 0 (0: all): " + perPair);
        }
        this.options = options;
        this.perPair = perPair == 0 ? Integer.MAX_VALUE : perPair;
        String pinned = options.pinnedReference();
        this.network = new NetworkSync(options.withPinnedReference(pinned == null ? null : HUB + pinned)
                .withReferenceRule(ReferenceRule.MOST_LINKS));
    }

    /** Whether a name is a hub's: the stand-in of a reference's clock, in the backbone and in a {@link Region}. */
    public static boolean isHub(String name) {
        return name.startsWith(HUB);
    }

    /** The node a hub stands for; a node's own name otherwise. */
    public static String node(String name) {
        return isHub(name) ? name.substring(HUB.length()) : name;
    }

    /** Applies the latest estimate of a link between regions {@code ra} and {@code rb}. */
    public void update(LinkEstimate link, String ra, String rb) {
        crossing.put(link.key(), link);
        rank(link.key(), pair(ra, rb), options.weightOf(link));
    }

    /** Removes a link between regions {@code ra} and {@code rb}. */
    public void remove(LinkKey key, String ra, String rb) {
        if (crossing.remove(key) != null) {
            rank(key, pair(ra, rb), Double.NaN);
        }
    }

    /** The nodes that end a link held. */
    public Set<String> ends() {
        return ends.keySet();
    }

    /** The links between regions held. */
    Set<LinkKey> held() {
        return Set.copyOf(held);
    }

    /**
     * Takes a node's factor from its region, to its reference there (the clock of a region component's reference,
     * or of the network's reference where the region reaches the backbone): while the node ends a link held, it is
     * tied by it to the hub of that reference; a null or unbounded factor unties it.
     */
    public void tie(String node, NodeFactor regionFactor) {
        if (regionFactor == null || !regionFactor.factor().bounded()) {
            regionFactors.remove(node);
        } else {
            regionFactors.put(node, regionFactor);
        }
        retie(node);
    }

    /** Brings a node's tie in line with its region factor and whether it ends a link held. */
    private void retie(String node) {
        NodeFactor f = ends.containsKey(node) ? regionFactors.get(node) : null;
        LinkKey key = f == null ? null : new LinkKey(node, HUB + f.reference());
        LinkKey was = key == null ? ties.remove(node) : ties.put(node, key);
        if (was != null && !was.equals(key)) {
            network.remove(was);
        }
        if (key != null) {
            network.update(link(key, f.factor()));
        }
    }

    /**
     * Every end's factor to the reference of its component, by name (a reference is a node's name: a hub answers
     * for its reference's clock).
     */
    public Map<String, AnchoredFactor> evaluate() {
        network.drain();
        Map<String, AnchoredFactor> out = new TreeMap<>();
        for (AnchoredFactor f : network.evaluate(null).factors()) {
            if (!isHub(f.node())) {
                out.put(f.node(), isHub(f.reference()) ? new AnchoredFactor(f.node(), node(f.reference()),
                        f.factor(), f.evaluatedAtNs(), f.treeUpPs(), f.treeDownPs(), f.method()) : f);
            }
        }
        return out;
    }

    /** The backbone's size: its nodes and its links (held and ties). */
    public int nodes() {
        return network.nodes().size();
    }

    public int links() {
        return held.size() + ties.size();
    }

    /**
     * The link key.a()~key.b() of a factor from a's clock to b's: the estimate its map, the latest time its anchor
     * with its bounds there, the slope range [slope − growthBelow, slope + growthAbove] rounded outward (the map's
     * low part too), the clock model's ρ′ ({@link NetworkIntervals#modelCurvature}); at least 1 ps and two ulps of
     * slope wide, so that every weight is finite.
     */
    static LinkEstimate link(LinkKey key, Factor f) {
        ClockMap map = f.toReference();
        double hi = map.slope().hi();
        double lo = Math.abs(map.slope().lo());
        double min = Math.nextDown(Math.nextDown(hi - (f.growthBelow() + lo)));
        double max = Math.nextUp(Math.nextUp(hi + (f.growthAbove() + lo)));
        return new LinkEstimate(key, LinkQuality.ACCURATE, map, max - min, min, max, f.anchorNs(),
                Math.max(1, f.upPs()), Math.max(1, f.downPs()), NetworkIntervals.modelCurvature(f.curvature()),
                NetworkIntervals.modelCurvature(f.step()));
    }

    private static String pair(String ra, String rb) {
        return ra.compareTo(rb) < 0 ? ra + '\n' + rb : rb + '\n' + ra;
    }

    /** Ranks a link between regions by its weight (NaN: it takes no part) and keeps the choice of links held. */
    private void rank(LinkKey key, String pair, double weight) {
        if (perPair == Integer.MAX_VALUE) {
            if (Double.isNaN(weight)) {
                drop(key);
            } else {
                take(key, true);
            }
            return;
        }
        TreeSet<Ranked> ranked = pairs.computeIfAbsent(pair, p -> new TreeSet<>());
        Ranked was = ranks.remove(key);
        if (was != null) {
            ranked.remove(was);
        }
        if (!Double.isNaN(weight)) {
            Ranked now = new Ranked(weight, key);
            ranks.put(key, now);
            ranked.add(now);
        }
        int place = 0;
        boolean chosen = false;
        for (Ranked r : ranked) {
            if (place == perPair) {
                drop(r.key()); // pushed out by the link ranked
                break;
            }
            chosen |= r.key().equals(key);
            take(r.key(), r.key().equals(key));
            place++;
        }
        if (!chosen) {
            drop(key);
        }
        if (ranked.isEmpty()) {
            pairs.remove(pair);
        }
    }

    /** Holds a link between regions if not held, or applies its new estimate if {@code changed}. */
    private void take(LinkKey key, boolean changed) {
        boolean added = held.add(key);
        if (added || changed) {
            network.update(crossing.get(key));
        }
        if (added) {
            count(key, 1);
        }
    }

    private void drop(LinkKey key) {
        if (held.remove(key)) {
            network.remove(key);
            count(key, -1);
        }
    }

    private void count(LinkKey key, int change) {
        for (String node : new String[] {key.a(), key.b()}) {
            int now = ends.merge(node, change, Integer::sum);
            if (now == 0) {
                ends.remove(node);
            }
            if (now == 0 || now == 1 && change > 0) {
                retie(node);
            }
        }
    }

    /** A link between regions in its pair's order: by weight, then by key. */
    private record Ranked(double weight, LinkKey key) implements Comparable<Ranked> {
        @Override
        public int compareTo(Ranked o) {
            int c = Double.compare(weight, o.weight);
            return c != 0 ? c : key.compareTo(o.key);
        }
    }
}
