package io.tracesync.streams.config;

import io.tracesync.schema.SerdeConfig;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Which keys a configuration may hold: tracesync's own ({@link TracesyncConfig#CONFIG}), Kafka Streams' and its
 * clients' (also under their prefixes, e.g. {@code producer.acks}, checked against that client's keys; any key after
 * {@code client.tag.}), and the schema registry client's (its TLS keys as {@code schema.registry.ssl.*}). A key in one
 * of tracesync's namespaces ({@code factors.}, {@code network.}, …) that tracesync does not declare is an error, and
 * so is any other unknown key within two edits of a known one ({@code bootstrap.server}): both most likely a
 * misspelling, which would otherwise fall back to the default without a word. An unknown key far from every known one
 * is returned as a warning (Kafka ignores it, as it ignores a key it does not use). Kafka's keys given a value of the
 * wrong type or outside their range fail here too, before any client is made.
 */
public final class KnownKeys {

    private static final Set<String> OURS = TracesyncConfig.CONFIG.names();
    private static final Set<String> NAMESPACES = namespaces();
    private static final Set<String> REGISTRY = Set.of(SerdeConfig.URL, SerdeConfig.AUTO_REGISTER,
            SerdeConfig.CREDENTIALS_SOURCE, SerdeConfig.USER_INFO, SerdeConfig.KEY_STRATEGY,
            SerdeConfig.VALUE_STRATEGY, SerdeConfig.REQUEST_TIMEOUT, SerdeConfig.MAX_RETRIES, SerdeConfig.RETRIES_WAIT,
            SerdeConfig.RETRIES_MAX_WAIT);
    private static final Map<String, ConfigDef.ConfigKey> STREAMS = StreamsConfig.configDef().configKeys();
    private static final Map<String, ConfigDef.ConfigKey> PRODUCER = ProducerConfig.configDef().configKeys();
    private static final Map<String, ConfigDef.ConfigKey> CONSUMER = ConsumerConfig.configDef().configKeys();
    private static final Map<String, ConfigDef.ConfigKey> ADMIN = AdminClientConfig.configDef().configKeys();
    /** Unprefixed, Kafka Streams applies a client key to every client that has it. */
    private static final Map<String, ConfigDef.ConfigKey> KAFKA = kafka();
    /** A client's prefix and that client's keys, which may follow it. */
    private static final Map<String, Map<String, ConfigDef.ConfigKey>> CLIENT_PREFIXES = clientPrefixes();
    /** The topic-level keys ({@link TopicConfig}'s {@code *_CONFIG} constants), after {@code topic.}. */
    private static final Set<String> TOPIC = topicKeys();
    /** The registry client's prefix; after it, its TLS keys are a Kafka client's {@code ssl.*} keys. */
    private static final String REGISTRY_PREFIX = "schema.registry.";
    private static final int MISSPELLING = 2;

    private KnownKeys() {
    }

    private static Set<String> namespaces() {
        Set<String> n = new TreeSet<>();
        OURS.forEach(k -> n.add(k.substring(0, k.indexOf('.') + 1)));
        return Set.copyOf(n);
    }

    private static Map<String, ConfigDef.ConfigKey> kafka() {
        Map<String, ConfigDef.ConfigKey> k = new HashMap<>(ADMIN);
        k.putAll(CONSUMER);
        k.putAll(PRODUCER);
        k.putAll(STREAMS);
        return Map.copyOf(k);
    }

    private static Map<String, Map<String, ConfigDef.ConfigKey>> clientPrefixes() {
        Map<String, Map<String, ConfigDef.ConfigKey>> p = new LinkedHashMap<>();
        // longest first: "main.consumer." before "consumer."
        p.put(StreamsConfig.RESTORE_CONSUMER_PREFIX, CONSUMER);
        p.put(StreamsConfig.GLOBAL_CONSUMER_PREFIX, CONSUMER);
        p.put(StreamsConfig.MAIN_CONSUMER_PREFIX, CONSUMER);
        p.put(StreamsConfig.CONSUMER_PREFIX, CONSUMER);
        p.put(StreamsConfig.PRODUCER_PREFIX, PRODUCER);
        p.put(StreamsConfig.ADMIN_CLIENT_PREFIX, ADMIN);
        return Collections.unmodifiableMap(p);
    }

    private static Set<String> topicKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field f : TopicConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && f.getName().endsWith("_CONFIG")) {
                try {
                    keys.add((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Set.copyOf(keys);
    }

    /** Whether tracesync, Kafka Streams, a Kafka client or the registry client understands the key. */
    public static boolean known(String key) {
        return OURS.contains(key) || KAFKA.containsKey(key) || REGISTRY.contains(key)
                || key.startsWith(StreamsConfig.CLIENT_TAG_PREFIX)
                || key.startsWith(REGISTRY_PREFIX + "ssl.")
                && ADMIN.containsKey(key.substring(REGISTRY_PREFIX.length()))
                || key.startsWith(StreamsConfig.TOPIC_PREFIX)
                && TOPIC.contains(key.substring(StreamsConfig.TOPIC_PREFIX.length()))
                || clientKey(key).isPresent();
    }

    /** A client-prefixed key's definition ({@code producer.acks} → the producer's {@code acks}). */
    private static Optional<ConfigDef.ConfigKey> clientKey(String key) {
        return CLIENT_PREFIXES.entrySet().stream().filter(p -> key.startsWith(p.getKey())).findFirst()
                .map(p -> p.getValue().get(key.substring(p.getKey().length())));
    }

    /** The keys that may follow the key's prefix, each with the prefix ({@code producer.ack} → the producer's). */
    private static Stream<String> prefixed(String key) {
        if (key.startsWith(StreamsConfig.TOPIC_PREFIX)) {
            return TOPIC.stream().map(k -> StreamsConfig.TOPIC_PREFIX + k);
        }
        if (key.startsWith(REGISTRY_PREFIX)) {
            return ADMIN.keySet().stream().filter(k -> k.startsWith("ssl.")).map(k -> REGISTRY_PREFIX + k);
        }
        return CLIENT_PREFIXES.entrySet().stream().filter(p -> key.startsWith(p.getKey())).limit(1)
                .flatMap(p -> p.getValue().keySet().stream().map(k -> p.getKey() + k));
    }

    /**
     * Fails on the first key that looks like a misspelt key or holds a value Kafka would refuse; returns one warning
     * per key that nothing knows.
     *
     * @throws ConfigException naming the key and the nearest known key, or the value and what is wrong with it
     */
    public static List<String> check(Map<String, String> values) {
        List<String> warnings = new ArrayList<>();
        for (String key : new TreeSet<>(values.keySet())) {
            if (known(key)) {
                checkValue(key, values.get(key));
                continue;
            }
            Optional<String> nearest = nearest(key);
            boolean ours = NAMESPACES.stream().anyMatch(key::startsWith);
            if (ours || nearest.filter(n -> misspelling(key, n)).isPresent()) {
                throw new ConfigException("unknown configuration key '" + key + "'"
                        + nearest.map(n -> "; did you mean '" + n + "'?").orElse("")
                        + (ours || nearest.filter(OURS::contains).isPresent()
                        ? " (tracesync's keys: docs/STREAMS.md, Configuration)" : ""));
            }
            warnings.add("unknown configuration key '" + key + "' (not a key of tracesync, Kafka Streams, the Kafka "
                    + "clients or the schema registry client): ignored");
        }
        return warnings;
    }

    private static boolean misspelling(String key, String known) {
        return distance(key, known) <= Math.min(MISSPELLING, key.length() / 4);
    }

    /** A Kafka key's value parsed and validated as the client would, so that a wrong one fails before it starts. */
    private static void checkValue(String key, String value) {
        ConfigDef.ConfigKey def = KAFKA.containsKey(key) ? KAFKA.get(key) : clientKey(key).orElse(null);
        if (def == null || value == null) {
            return;
        }
        Object parsed = ConfigDef.parseType(key, value.strip(), def.type);
        if (def.validator != null) {
            def.validator.ensureValid(key, parsed);
        }
    }

    /** The known key with the fewest edits from {@code key}: tracesync's, Kafka's, or one after the same prefix. */
    static Optional<String> nearest(String key) {
        return Stream.of(OURS.stream(), KAFKA.keySet().stream(), REGISTRY.stream(), prefixed(key))
                .flatMap(s -> s)
                .min(Comparator.<String>comparingInt(k -> distance(key, k)).thenComparing(k -> k));
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
