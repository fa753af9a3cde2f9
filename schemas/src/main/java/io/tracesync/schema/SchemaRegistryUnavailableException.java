package io.tracesync.schema;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The schema registry could not answer for now: no URL reachable, a timeout, or a transient status (408, 429, 502,
 * 503, 504). Unlike an unknown id or an invalid schema, the same request may succeed later, so a consumer should
 * retry the record rather than dead-letter it.
 */
public class SchemaRegistryUnavailableException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public SchemaRegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether {@code status} says "try again later" rather than "no". */
    static boolean isTransient(int status) {
        return status == 408 || status == 429 || status == 502 || status == 503 || status == 504;
    }

    /** Whether {@code e} or one of its causes is this exception. */
    public static boolean isCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SchemaRegistryUnavailableException) {
                return true;
            }
        }
        return false;
    }
}
