package io.tracesync.streams.errors;

import io.tracesync.schema.SchemaRegistryUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that needs the schema registry while it is unavailable (after the client's own retries) is not bad
 * input: it must be processed later, not dead-lettered. The error handlers then answer FAIL: the stream thread is
 * replaced and the task resumes from its last commit (exactly_once_v2 aborts what it wrote since), meeting the
 * record again.
 */
final class RegistryOutage {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryOutage.class);

    private RegistryOutage() {
    }

    /** True, and logged, when {@code e} comes from an unavailable registry. */
    static boolean isCause(Exception e, String where) {
        if (!SchemaRegistryUnavailableException.isCause(e)) {
            return false;
        }
        LOG.warn("schema registry unavailable at {}; the record is retried from the last commit: {}", where,
                e.getMessage());
        return true;
    }
}
