package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The incremental network core against the from-scratch {@link OfflineNetwork} after every operation of random
 * sequences: insertions, joins, cycles kept and dropped, weight decreases and increases, removals, quality changes
 * and pinning. Trees, references and factors must be identical, and each drain must report exactly the nodes
 * whose answer changed.
 */
class NetworkSyncTest {

    /** A random workload over a few nodes, so ties, cycles and splits are frequent. */
    static final class Workload {
        final Random random;
        final List<String> names = new ArrayList<>();
        final Map<LinkKey, LinkEstimate> links = new TreeMap<>();
        final Set<String> nodes = new TreeSet<>();
        /** Each link's weight as the forest holds it: within the options' weight spread of its latest. */
        final Map<LinkKey, Double> held = new HashMap<>();
        final double[] weights;

        Workload(long seed, int nodeCount) {
            random = new Random(seed);
            for (int i = 0; i < nodeCount; i++) {
                names.add(Integer.toString(random.nextInt(1000), 36) + "_" + i);
            }
            weights = new double[] {1e-9, 2e-9, 3e-9, random.nextDouble() * 1e-8};
        }

        /**
         * The link's latest estimate, and the weight the forest then holds under {@code o}'s weight spread: an
         * accurate link's that stays accurate is kept while the new one lies within the spread.
         */
        void put(LinkEstimate e, NetworkOptions o) {
            double w = o.weightOf(e);
            Double h = held.get(e.key());
            LinkEstimate before = links.put(e.key(), e);
            if (Double.isNaN(w)) {
                held.remove(e.key());
            } else if (h == null || before.quality() != LinkQuality.ACCURATE || e.quality() != LinkQuality.ACCURATE
                    || o.method() == NetworkMethod.TREE || w > h * o.weightSpread() || h > w * o.weightSpread()) {
                held.put(e.key(), w);
            }
        }

        void remove(LinkKey key) {
            links.remove(key);
            held.remove(key);
        }

        /**
         * The links as the forest ranks them: an accurate one with the slope accuracy the forest holds (a weight
         * spread is used with that weight only, see {@link #options}).
         */
        List<LinkEstimate> ranked() {
            List<LinkEstimate> out = new ArrayList<>();
            for (LinkEstimate e : links.values()) {
                Double h = held.get(e.key());
                out.add(h == null || e.quality() != LinkQuality.ACCURATE || h == e.slopeAccuracy() ? e
                        : new LinkEstimate(e.key(), e.quality(), e.aToB(), h, e.minSlope(), e.maxSlope(),
                                e.latestNs(), e.upPs(), e.downPs(), e.curvature()));
            }
            return out;
        }

        String node() {
            return names.get(random.nextInt(names.size()));
        }

        LinkKey pair() {
            String a = node();
            String b = node();
            while (b.equals(a)) {
                b = node();
            }
            return LinkKey.between(a, b);
        }

        LinkEstimate estimate(LinkKey key) {
            int q = random.nextInt(20);
            if (q == 0) {
                return LinkEstimate.unusable(key, random.nextBoolean() ? LinkQuality.FAIL : LinkQuality.INCOMPLETE);
            }
            double slope = 1 + (random.nextDouble() - 0.5) * 2e-4;
            ClockMap map = ClockMap.of(DoubleDouble.of(slope), DoubleDouble.of((random.nextDouble() - 0.5) * 2e12));
            long up = 1000L * (1 + random.nextInt(3));
            long down = 1000L * (1 + random.nextInt(3));
            double acc = weights[random.nextInt(weights.length)];
            if (q == 1) {
                return new LinkEstimate(key, LinkQuality.APPROXIMATE, map, Double.NaN, Double.NaN, Double.NaN, 0,
                        up,
                        LinkEstimate.UNBOUNDED);
            }
            return LinkEstimate.accurate(key, map, acc, slope - acc, slope + acc, 0, up, down);
        }
    }

    /** Applies one random operation to both the workload's truth and the network. */
    static void step(Workload w, NetworkSync net) {
        int op = w.random.nextInt(100);
        if (op < 55) {
            LinkKey key = w.pair();
            LinkEstimate e = w.estimate(key);
            w.put(e, net.options());
            w.nodes.add(key.a());
            w.nodes.add(key.b());
            update(net, e);
        } else if (op < 80 && !w.links.isEmpty()) {
            LinkKey key = new ArrayList<>(w.links.keySet()).get(w.random.nextInt(w.links.size()));
            LinkEstimate e = w.estimate(key);
            w.put(e, net.options());
            update(net, e);
        } else if (op < 92 && !w.links.isEmpty()) {
            LinkKey key = new ArrayList<>(w.links.keySet()).get(w.random.nextInt(w.links.size()));
            w.remove(key);
            if ((key.hashCode() & 1) == 0) {
                net.remove(key);
            } else {
                net.remove(net.node(key.b()), net.node(key.a()));
            }
        } else if (op < 97) {
            String n = w.node();
            w.nodes.add(n);
            net.addNode(n);
        } else {
            net.pinReference(w.random.nextInt(3) == 0 ? null : w.node());
        }
    }

    /** Applies an estimate by name or, for about half the links, by the ids of their ends. */
    private static void update(NetworkSync net, LinkEstimate e) {
        if ((e.key().hashCode() & 1) == 0) {
            net.update(e);
        } else {
            net.update(net.node(e.key().a()), net.node(e.key().b()), e);
        }
    }

    static NetworkOptions options(Random random) {
        NetworkOptions o = random.nextBoolean() ? NetworkOptions.DEFAULT
                : NetworkOptions.DEFAULT.withWeight(LinkWeight.BOUND_WIDTH);
        o = o.withReferenceRule(ReferenceRule.values()[random.nextInt(ReferenceRule.values().length)]);
        if (o.weight() == LinkWeight.SLOPE_ACCURACY && random.nextBoolean()) {
            o = o.withWeightSpread(random.nextBoolean() ? 1.4 : 2.5);
            o = random.nextInt(4) == 0 ? o.withMethod(NetworkMethod.TREE) : o;
        }
        return random.nextInt(3) == 0 ? o.withApproximate(random.nextBoolean() ? 5e-9 : Double.POSITIVE_INFINITY) : o;
    }

    /** Drains and checks everything against the oracle; returns the new answers by node. */
    static Map<String, NodeFactor> check(Workload w, NetworkSync net, Map<String, NodeFactor> before) {
        List<NodeFactor> reported = net.drain();
        OfflineNetwork truth = OfflineNetwork.compute(w.nodes, w.ranked(),
                net.options().withPinnedReference(net.pinnedReference()));
        assertEquals(truth.tree(), net.tree());
        Map<String, NodeFactor> now = new HashMap<>();
        for (NodeFactor f : net.factors()) {
            now.put(f.node(), f);
        }
        assertEquals(truth.factors(), now);
        Set<String> expectedChanged = new HashSet<>();
        now.forEach((n, f) -> {
            if (!f.equals(before.get(n))) {
                expectedChanged.add(n);
            }
        });
        Set<String> reportedNames = new HashSet<>();
        reported.forEach(f -> assertTrue(reportedNames.add(f.node()), "reported twice: " + f));
        assertEquals(expectedChanged, reportedNames);
        return now;
    }

    @Property(tries = 300)
    void identicalToTheOfflineOracleAfterEveryOperation(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 12) int nodeCount) {
        Workload w = new Workload(seed, nodeCount);
        NetworkSync net = new NetworkSync(options(w.random));
        Map<String, NodeFactor> before = Map.of();
        for (int i = 0; i < 60; i++) {
            step(w, net);
            before = check(w, net, before);
        }
    }

    @Property(tries = 100)
    void drainsCoalesceAnyNumberOfChanges(@ForAll long seed, @ForAll @IntRange(min = 2, max = 16) int nodeCount) {
        Workload w = new Workload(seed, nodeCount);
        NetworkSync net = new NetworkSync(options(w.random));
        Map<String, NodeFactor> before = Map.of();
        for (int i = 0; i < 200; i++) {
            step(w, net);
            if (w.random.nextInt(8) == 0) {
                before = check(w, net, before);
            }
        }
        check(w, net, before);
    }

    /**
     * The components the evaluation keeps between calls, brought up to date in place (links updated, tree factors
     * changed, references moved), give the evaluation a network built afresh from the same links, with the weights
     * the forest held, gives.
     */
    @Property(tries = 100)
    void theEvaluationKeptUpToDateIsTheOneOfANetworkBuiltAfresh(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 12) int nodeCount) {
        Workload w = new Workload(seed, nodeCount);
        NetworkOptions options = options(w.random);
        NetworkSync net = new NetworkSync(options);
        int compared = 0;
        for (int i = 0; i < 150; i++) {
            step(w, net);
            if (w.random.nextInt(3) == 0) {
                net.drain();
                NetworkSync fresh = new NetworkSync(options.withPinnedReference(net.pinnedReference()));
                List<LinkEstimate> links = new ArrayList<>(w.links.values());
                java.util.Collections.shuffle(links, w.random);
                w.nodes.forEach(fresh::addNode);
                // each with the weight the forest holds (NetworkProcessor stores it beside the summary)
                links.forEach(e -> fresh.update(fresh.node(e.key().a()), fresh.node(e.key().b()), e,
                        w.held.getOrDefault(e.key(), Double.NaN)));
                fresh.drain();
                assertEquals(fresh.evaluate(null), net.evaluate(null), "after operation " + i);
                compared++;
            }
        }
        assertTrue(compared > 20, compared + " comparisons");
    }

    /**
     * Two nodes swinging between two points of a 40-node path move its centroids at every swing (p18 and p19, then
     * a and p21): the centroid rule re-bases every node at every swing. By default the node with the most links,
     * p12 (three, as p28 and q0), stays the reference, and only the two swinging nodes get new factors.
     */
    @Test
    void aSwingingSubtreeMovesTheCentroidButNotTheReference() {
        for (ReferenceRule rule : ReferenceRule.values()) {
            NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT.withReferenceRule(rule));
            String[] path = new String[40];
            for (int i = 0; i < path.length; i++) {
                path[i] = i == 20 ? "a" : String.format("p%02d", i);
                if (i > 0) {
                    net.update(OfflineNetworkTest.link(path[i - 1], path[i], 1e-9));
                }
            }
            net.update(OfflineNetworkTest.link("q0", "q1", 1e-9));
            net.update(OfflineNetworkTest.link(path[12], "q0", 2e-9));
            net.update(OfflineNetworkTest.link(path[28], "q0", 3e-9));
            net.drain();
            long changes = net.stats().referenceChanges;
            Set<String> references = new TreeSet<>();
            for (int swing = 0; swing < 20; swing++) {
                net.update(OfflineNetworkTest.link(path[12], "q0", swing % 2 == 0 ? 4e-9 : 2e-9));
                Set<String> changed = new TreeSet<>();
                net.drain().forEach(f -> changed.add(f.node()));
                references.add(net.factor("p00").reference());
                if (rule == ReferenceRule.MOST_LINKS) {
                    assertEquals(Set.of("q0", "q1"), changed, "swing " + swing);
                } else {
                    assertEquals(42, changed.size(), "swing " + swing);
                }
            }
            if (rule == ReferenceRule.MOST_LINKS) {
                assertEquals(Set.of("p12"), references);
                assertEquals(changes, net.stats().referenceChanges);
            } else {
                assertEquals(Set.of("a", "p18"), references);
                assertEquals(changes + 20, net.stats().referenceChanges);
            }
        }
    }

    @Test
    void largeRandomNetworkWithDeepTrees() {
        Workload w = new Workload(42, 400);
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        Map<String, NodeFactor> before = Map.of();
        for (int i = 0; i < 20_000; i++) {
            step(w, net);
            if (i % 500 == 499) {
                before = check(w, net, before);
            }
        }
        assertTrue(net.stats().cycleKept > 0);
        assertTrue(net.stats().splits > 0);
        assertTrue(net.stats().replacements > 0);
    }
}
