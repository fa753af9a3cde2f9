package io.tracesync.deploy;

import io.tracesync.schema.SerdeConfig;
import io.tracesync.streams.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/** The configuration keys tracesync understands, and which key a {@code TRACESYNC_...} variable sets. */
final class ConfigKeys {

    static final String PREFIX = "TRACESYNC_";

    private static final Set<String> KNOWN = known();

    private ConfigKeys() {
    }

    private static Set<String> known() {
        Set<String> k = new HashSet<>(Settings.DEFAULTS.keySet());
        k.addAll(StreamsConfig.configDef().names());
        k.addAll(ConsumerConfig.configNames());
        k.addAll(ProducerConfig.configNames());
        k.addAll(AdminClientConfig.configNames());
        k.addAll(Set.of(SerdeConfig.URL, SerdeConfig.AUTO_REGISTER, SerdeConfig.CREDENTIALS_SOURCE,
                SerdeConfig.USER_INFO, SerdeConfig.KEY_STRATEGY, SerdeConfig.VALUE_STRATEGY,
                SerdeConfig.REQUEST_TIMEOUT, SerdeConfig.MAX_RETRIES, SerdeConfig.RETRIES_WAIT,
                SerdeConfig.RETRIES_MAX_WAIT));
        return Set.copyOf(k);
    }

    /** The key the application itself derives from the variable (through {@link Settings#load}). */
    static String keyOf(String variable) {
        String marker = "\u0000" + variable;
        try {
            Properties p = Settings.load(null, Map.of(variable, marker), Map.of()).streamsProperties();
            return p.stringPropertyNames().stream().filter(k -> marker.equals(p.getProperty(k))).findFirst()
                    .orElseThrow(() -> new AssertionError(variable + " sets no key"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean known(String key) {
        return KNOWN.contains(key);
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
