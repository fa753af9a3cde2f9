package io.tracesync.streams.network;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The widest bound among the factors published to {@code sync.factors}, at their anchors: the one figure the
 * progress line, the metric {@code tracesync_bound_widest_seconds}, {@code /factors} and the live view all show.
 * Kept as a multiset of every node's bound, so that an update costs O(log n).
 */
final class PublishedBounds {

    private final Map<String, Long> byNode = new HashMap<>();
    private final TreeMap<Long, Integer> counts = new TreeMap<>();

    /** The node's published bound, in ps; negative for an unbounded factor (not counted). */
    void put(String node, long boundPs) {
        Long old = byNode.put(node, boundPs);
        if (old != null && old >= 0) {
            counts.computeIfPresent(old, (k, n) -> n == 1 ? null : n - 1);
        }
        if (boundPs >= 0) {
            counts.merge(boundPs, 1, Integer::sum);
        }
    }

    /** The widest bound, in ps, or -1 while no published factor is bounded. */
    long widest() {
        return counts.isEmpty() ? -1 : counts.lastKey();
    }

    void clear() {
        byNode.clear();
        counts.clear();
    }
}
