package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest factor of every node: a record replaces the node's factor only with a higher version, a tombstone
 * removes it. Written by one thread, read by any.
 */
final class LatestFactors {

    private static final Logger LOG = LoggerFactory.getLogger(LatestFactors.class);

    /** A change {@link #apply} made: previous or current is null when the node had no factor or lost it. */
    record Change(String node, PublishedFactor previous, PublishedFactor current) {
    }

    private final Map<String, PublishedFactor> byNode = new ConcurrentHashMap<>();

    /**
     * Applies one record of the topic (a null value is a tombstone). Records without a key, whose node differs
     * from the key, or whose factor is malformed are logged and skipped.
     *
     * @return the change, or empty if the record changed nothing (an older or equal version, a tombstone of an
     *     unknown node, a skipped record)
     */
    Optional<Change> apply(String key, SyncFactor value, String origin) {
        if (key == null) {
            LOG.warn("skipped a factor without a key at {}", origin);
            return Optional.empty();
        }
        if (value == null) {
            PublishedFactor removed = byNode.remove(key);
            return removed == null ? Optional.empty() : Optional.of(new Change(key, removed, null));
        }
        PublishedFactor next;
        try {
            if (!key.equals(value.getNode())) {
                throw new IllegalArgumentException("node " + value.getNode() + " under key " + key);
            }
            next = PublishedFactor.of(value);
        } catch (IllegalArgumentException e) {
            LOG.warn("skipped a malformed factor at {}: {}", origin, e.getMessage());
            return Optional.empty();
        }
        PublishedFactor previous = byNode.get(key);
        if (previous != null && previous.version() >= next.version()) {
            return Optional.empty();
        }
        byNode.put(key, next);
        return Optional.of(new Change(key, previous, next));
    }

    Optional<PublishedFactor> get(String node) {
        return Optional.ofNullable(byNode.get(node));
    }

    Map<String, PublishedFactor> snapshot() {
        return Map.copyOf(byNode);
    }
}
