package io.tracesync.client;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest factor of every node: a record replaces the node's factor only with a higher version, a tombstone
 * removes it. Written by one thread, read by any.
 */
final class LatestFactors {

    /** A change {@link #apply} made: previous or current is null when the node had no factor or lost it. */
    record Change(String node, PublishedFactor previous, PublishedFactor current) {
    }

    private final Map<String, PublishedFactor> byNode = new ConcurrentHashMap<>();

    /**
     * Applies one record of the topic: a factor replaces the node's only with a higher version, a tombstone removes
     * the node.
     *
     * @return the change, or empty if the record changed nothing (an older or equal version, a tombstone of an
     *     unknown node)
     */
    Optional<Change> apply(FactorRecord r) {
        String node = r.node();
        if (r.tombstone()) {
            PublishedFactor removed = byNode.remove(node);
            return removed == null ? Optional.empty() : Optional.of(new Change(node, removed, null));
        }
        PublishedFactor previous = byNode.get(node);
        if (previous != null && previous.version() >= r.factor().version()) {
            return Optional.empty();
        }
        byNode.put(node, r.factor());
        return Optional.of(new Change(node, previous, r.factor()));
    }

    Optional<PublishedFactor> get(String node) {
        return Optional.ofNullable(byNode.get(node));
    }

    Map<String, PublishedFactor> snapshot() {
        return Map.copyOf(byNode);
    }
}
