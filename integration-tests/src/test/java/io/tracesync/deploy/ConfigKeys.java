package io.tracesync.deploy;

import io.tracesync.streams.Settings;
import io.tracesync.streams.config.KnownKeys;

/** The configuration keys tracesync understands, and which key a {@code TRACESYNC_...} variable sets. */
final class ConfigKeys {

    static final String PREFIX = "TRACESYNC_";

    private ConfigKeys() {
    }

    /** The key the application itself derives from the variable ({@link Settings#envKey}). */
    static String keyOf(String variable) {
        return Settings.envKey(variable);
    }

    static boolean known(String key) {
        return KnownKeys.known(key);
    }

    /** The variable's key when it is one tracesync, Kafka Streams or a client understands; else an error. */
    static String checked(String variable) {
        String key = keyOf(variable);
        if (!known(key)) {
            throw new AssertionError(variable + " sets '" + key + "', a key neither tracesync nor Kafka knows");
        }
        return key;
    }
}
