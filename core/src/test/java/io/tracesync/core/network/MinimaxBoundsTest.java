package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The invariant that lets {@link MinimaxBounds} skip path queries, after every operation of random sequences
 * (joins, cycles, decreases, increases, replacements, splits, full re-bounds): labels are equal exactly within
 * a tree of the oracle's forest, sizes are the trees' sizes, and each bound is at least the heaviest weight on the
 * oracle's path to the anchor.
 */
class MinimaxBoundsTest {

    @Property(tries = 200)
    void boundsHoldAfterEveryOperation(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int nodeCount) {
        NetworkSyncTest.Workload w = new NetworkSyncTest.Workload(seed, nodeCount);
        NetworkSync net = new NetworkSync(NetworkSyncTest.options(w.random));
        for (int i = 0; i < 80; i++) {
            NetworkSyncTest.step(w, net);
            check(w, net);
        }
    }

    private static void check(NetworkSyncTest.Workload w, NetworkSync net) {
        List<TreeEdge> edges = OfflineNetwork.compute(w.nodes, w.ranked(), net.options()).tree();
        Map<String, Map<String, Double>> adjacent = new HashMap<>();
        for (TreeEdge e : edges) {
            adjacent.computeIfAbsent(e.a(), k -> new HashMap<>()).put(e.b(), e.weight());
            adjacent.computeIfAbsent(e.b(), k -> new HashMap<>()).put(e.a(), e.weight());
        }
        SpanningForest forest = net.forest();
        MinimaxBounds bounds = forest.bounds();
        for (String node : net.nodes()) {
            int v = net.vertexId(node);
            Map<String, Double> heaviest = pathMaxima(adjacent, forest.name(bounds.anchorOf(v)));
            assertTrue(heaviest.containsKey(node), node + " is not in its anchor's tree");
            assertTrue(bounds.bound(v) >= heaviest.get(node), node + ": bound below the path's heaviest edge");
            assertEquals(heaviest.size(), bounds.treeSize(v), node + ": tree size");
            for (String other : net.nodes()) {
                assertEquals(heaviest.containsKey(other), bounds.label(v) == bounds.label(net.vertexId(other)),
                        node + " / " + other);
            }
        }
    }

    /** The heaviest weight on the tree path from start to every vertex of its tree (-infinity at start). */
    private static Map<String, Double> pathMaxima(Map<String, Map<String, Double>> adjacent, String start) {
        Map<String, Double> max = new HashMap<>();
        max.put(start, Double.NEGATIVE_INFINITY);
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String x = queue.poll();
            adjacent.getOrDefault(x, Map.of()).forEach((y, weight) -> {
                if (!max.containsKey(y)) {
                    max.put(y, Math.max(max.get(x), weight));
                    queue.add(y);
                }
            });
        }
        return max;
    }
}
