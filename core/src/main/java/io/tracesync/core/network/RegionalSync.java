package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The network solved in regions: nodes grouped by a region function (racks, zones), each region's own links in a
 * {@link NetworkSync} of its own, and a backbone {@code NetworkSync} over the links between regions, so that the
 * regions' work can be spread over tasks and only the backbone's is done in one place.
 *
 * <p>A region gives each of its nodes a factor to its component's reference H. In the backbone, H's clock is a
 * node of its own, the <em>hub</em> (named {@link #HUB} + H, after every node name), and every end u of a link
 * between regions is tied to its hub by a link made of u's region factor (map, bounds at the anchor, slope range
 * about it, curvature: the form of a {@link LinkEstimate}); H itself by the identity to 1 ps. Every backbone link
 * is thus implied by real links valid under the clock model, and so is every interval the backbone gives. A node
 * of the backbone takes the backbone's factor; any other node v its region factor followed by its hub's backbone
 * factor ({@link Factor#then}): the path v → H → r is one of the paths of the whole network, so the answer is
 * valid and never tighter than the whole network's, and a component that does not reach another region answers
 * with its region's factors. With one region the answer is {@link NetworkSync#evaluate}'s.
 */
public final class RegionalSync {

    /** Prefix of a hub's name: sorts after every node name, which therefore may not start with it. */
    public static final String HUB = "\uffff";

    private final NetworkOptions options;
    private final Function<String, String> regionOf;
    private final Map<String, NetworkSync> regions = new TreeMap<>();
    private final Map<LinkKey, LinkEstimate> crossing = new HashMap<>();
    private final Map<String, Integer> ends = new HashMap<>();
    private final Map<String, LinkKey> tied = new HashMap<>();
    private final NetworkSync backbone;

    /** The pinned reference, if any, is pinned in its region and its hub in the backbone. */
    public RegionalSync(NetworkOptions options, Function<String, String> regionOf) {
        this.options = Objects.requireNonNull(options, "options");
        this.regionOf = Objects.requireNonNull(regionOf, "regionOf");
        String pinned = options.pinnedReference();
        this.backbone = new NetworkSync(options.withPinnedReference(pinned == null ? null : HUB + pinned));
    }

    /** The region of a node: the function's answer, checked. */
    public String region(String node) {
        if (node.startsWith(HUB)) {
            throw new IllegalArgumentException("a node name may not start with U+FFFF: " + node);
        }
        return Objects.requireNonNull(regionOf.apply(node), () -> "no region for " + node);
    }

    /** Applies a link's latest estimate, to its region's network or, between regions, to the backbone. */
    public void update(LinkEstimate link) {
        String ra = region(link.key().a());
        String rb = region(link.key().b());
        if (ra.equals(rb)) {
            regions.computeIfAbsent(ra, this::newRegion).update(link);
            return;
        }
        regions.computeIfAbsent(ra, this::newRegion).addNode(link.key().a());
        regions.computeIfAbsent(rb, this::newRegion).addNode(link.key().b());
        if (crossing.put(link.key(), link) == null) {
            ends.merge(link.key().a(), 1, Integer::sum);
            ends.merge(link.key().b(), 1, Integer::sum);
        }
        backbone.update(link);
    }

    /** Removes a link. */
    public void remove(LinkKey key) {
        String ra = region(key.a());
        if (ra.equals(region(key.b()))) {
            NetworkSync net = regions.get(ra);
            if (net != null) {
                net.remove(key);
            }
        } else if (crossing.remove(key) != null) {
            backbone.remove(key);
            release(key.a());
            release(key.b());
        }
    }

    private void release(String node) {
        if (ends.merge(node, -1, Integer::sum) == 0) {
            ends.remove(node);
        }
    }

    private NetworkSync newRegion(String region) {
        String pinned = options.pinnedReference();
        return new NetworkSync(pinned != null && region(pinned).equals(region) ? options
                : options.withPinnedReference(null));
    }

    /** The regions' names, sorted. */
    public Set<String> regions() {
        return regions.keySet();
    }

    /** Every node's factor to its reference, by node name; the parts' work in {@code work} if not null. */
    public Map<String, NodeFactor> evaluate(Work work) {
        Map<String, NodeFactor> regional = new HashMap<>();
        for (Map.Entry<String, NetworkSync> r : regions.entrySet()) {
            long start = System.nanoTime();
            r.getValue().drain();
            for (AnchoredFactor f : r.getValue().evaluate(null).factors()) {
                regional.put(f.node(), f.nodeFactor());
            }
            if (work != null) {
                work.regionNs.put(r.getKey(), System.nanoTime() - start);
            }
        }
        long start = System.nanoTime();
        tieEnds(regional);
        backbone.drain();
        Map<String, AnchoredFactor> top = new HashMap<>();
        for (AnchoredFactor f : backbone.evaluate(null).factors()) {
            top.put(f.node(), f);
        }
        Map<String, NodeFactor> out = new TreeMap<>();
        for (NodeFactor f : regional.values()) {
            AnchoredFactor own = top.get(f.node());
            AnchoredFactor hub = top.get(HUB + f.reference());
            if (own != null) {
                out.put(f.node(), new NodeFactor(f.node(), node(own.reference()), own.factor()));
            } else if (hub != null) {
                out.put(f.node(), new NodeFactor(f.node(), node(hub.reference()), f.factor().then(hub.factor())));
            } else {
                out.put(f.node(), f);
            }
        }
        if (work != null) {
            work.backboneNs = System.nanoTime() - start;
            work.backboneNodes = backbone.nodes().size();
            work.backboneLinks = crossing.size() + tied.size();
        }
        return out;
    }

    /** Ties every end of a link between regions to its hub by its region factor, and unties those no longer ends. */
    private void tieEnds(Map<String, NodeFactor> regional) {
        Set<String> stale = new HashSet<>(tied.keySet());
        for (String u : ends.keySet()) {
            NodeFactor f = regional.get(u);
            LinkKey key = f == null ? null : new LinkKey(u, HUB + f.reference());
            LinkKey was = tied.get(u);
            if (was != null && !was.equals(key)) {
                backbone.remove(was);
                tied.remove(u);
            }
            if (key != null && f.factor().bounded()) {
                backbone.update(tie(key, f.factor()));
                tied.put(u, key);
                stale.remove(u);
            }
        }
        for (String u : stale) {
            backbone.remove(tied.remove(u));
        }
    }

    /**
     * The link u~hub of u's region factor: the estimate its map, the latest time its anchor with its bounds there,
     * the slope range [slope − growthBelow, slope + growthAbove] rounded outward (the estimate's low part too), its
     * curvature; at least 1 ps and two ulps of slope wide, so that every weight is finite.
     */
    static LinkEstimate tie(LinkKey key, Factor f) {
        ClockMap map = f.toReference();
        double hi = map.slope().hi();
        double lo = Math.abs(map.slope().lo());
        double min = Math.nextDown(Math.nextDown(hi - (f.growthBelow() + lo)));
        double max = Math.nextUp(Math.nextUp(hi + (f.growthAbove() + lo)));
        return new LinkEstimate(key, LinkQuality.ACCURATE, map, max - min, min, max, f.anchorNs(),
                Math.max(1, f.upPs()), Math.max(1, f.downPs()), f.curvature());
    }

    private static String node(String name) {
        return name.startsWith(HUB) ? name.substring(HUB.length()) : name;
    }

    /** What an evaluation cost, part by part: each region's drain and evaluation, and the backbone's. */
    public static final class Work {
        public final Map<String, Long> regionNs = new TreeMap<>();
        public long backboneNs;
        public int backboneNodes;
        public int backboneLinks;

        /** The busiest of {@code tasks} tasks with the regions dealt to them in turn, in ns. */
        public long busiestTaskNs(int tasks) {
            long[] load = new long[tasks];
            List<Long> each = new ArrayList<>(regionNs.values());
            for (int i = 0; i < each.size(); i++) {
                load[i % tasks] += each.get(i);
            }
            long max = 0;
            for (long l : load) {
                max = Math.max(max, l);
            }
            return max;
        }
    }
}
