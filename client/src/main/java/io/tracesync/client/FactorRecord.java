package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record of {@code sync.factors} or of its history, checked: the node (its key) and the factor it carries, or
 * null for a tombstone.
 *
 * @param node the record's key
 * @param factor the factor, or null for a tombstone (a null value)
 */
record FactorRecord(String node, PublishedFactor factor) {

    private static final Logger LOG = LoggerFactory.getLogger(FactorRecord.class);

    /**
     * The record of {@code key} and {@code value}; records without a key, whose node differs from the key, or whose
     * factor is malformed are logged (with {@code origin}, where they were read) and skipped.
     */
    static Optional<FactorRecord> read(String key, SyncFactor value, String origin) {
        if (key == null) {
            LOG.warn("skipped a factor without a key at {}", origin);
            return Optional.empty();
        }
        if (value == null) {
            return Optional.of(new FactorRecord(key, null));
        }
        try {
            if (!key.equals(value.getNode())) {
                throw new IllegalArgumentException("node " + value.getNode() + " under key " + key);
            }
            return Optional.of(new FactorRecord(key, PublishedFactor.of(value)));
        } catch (IllegalArgumentException e) {
            LOG.warn("skipped a malformed factor at {}: {}", origin, e.getMessage());
            return Optional.empty();
        }
    }

    /** Whether the record removes the node. */
    boolean tombstone() {
        return factor == null;
    }
}
