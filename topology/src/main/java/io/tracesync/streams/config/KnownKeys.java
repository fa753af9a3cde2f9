package io.tracesync.streams.config;

import io.tracesync.schema.SerdeConfig;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Which keys a configuration may hold: tracesync's own ({@link TracesyncConfig#CONFIG}), Kafka Streams' and its
 * clients' (also under their prefixes, e.g. {@code producer.}), and the schema registry client's. A key in one of
 * tracesync's namespaces ({@code factors.}, {@code network.}, …) that tracesync does not declare is an error, and so
 * is any other unknown key within two edits of one of tracesync's: both most likely a misspelling, which would
 * otherwise be ignored without a word. Other unknown keys pass through to Kafka, which logs them as unused.
 */
public final class KnownKeys {

    private static final Set<String> OURS = TracesyncConfig.CONFIG.names();
    private static final Set<String> NAMESPACES = namespaces();
    private static final Set<String> KAFKA = kafka();
    private static final List<String> KAFKA_PREFIXES = List.of(StreamsConfig.PRODUCER_PREFIX,
            StreamsConfig.CONSUMER_PREFIX, StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.RESTORE_CONSUMER_PREFIX,
            StreamsConfig.GLOBAL_CONSUMER_PREFIX, StreamsConfig.ADMIN_CLIENT_PREFIX, StreamsConfig.TOPIC_PREFIX,
            StreamsConfig.CLIENT_TAG_PREFIX, "schema.registry.");
    private static final int MISSPELLING = 2;

    private KnownKeys() {
    }

    private static Set<String> namespaces() {
        Set<String> n = new TreeSet<>();
        OURS.forEach(k -> n.add(k.substring(0, k.indexOf('.') + 1)));
        return Set.copyOf(n);
    }

    private static Set<String> kafka() {
        Set<String> k = new HashSet<>(StreamsConfig.configDef().names());
        k.addAll(ConsumerConfig.configNames());
        k.addAll(ProducerConfig.configNames());
        k.addAll(AdminClientConfig.configNames());
        k.addAll(Set.of(SerdeConfig.URL, SerdeConfig.AUTO_REGISTER, SerdeConfig.CREDENTIALS_SOURCE,
                SerdeConfig.USER_INFO, SerdeConfig.KEY_STRATEGY, SerdeConfig.VALUE_STRATEGY,
                SerdeConfig.REQUEST_TIMEOUT, SerdeConfig.MAX_RETRIES, SerdeConfig.RETRIES_WAIT,
                SerdeConfig.RETRIES_MAX_WAIT));
        return Set.copyOf(k);
    }

    /** Whether tracesync, Kafka Streams, a Kafka client or the registry client understands the key. */
    public static boolean known(String key) {
        return OURS.contains(key) || KAFKA.contains(key) || KAFKA_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Fails on the first key that looks like a misspelt tracesync key.
     *
     * @throws ConfigException naming the key, where it came from, and the nearest tracesync key
     */
    public static void check(Map<String, String> values) {
        for (String key : new TreeSet<>(values.keySet())) {
            if (known(key)) {
                continue;
            }
            Optional<String> nearest = nearest(key);
            boolean ours = NAMESPACES.stream().anyMatch(key::startsWith);
            if (ours || nearest.filter(n -> distance(key, n) <= MISSPELLING).isPresent()) {
                throw new ConfigException("unknown configuration key '" + key + "'"
                        + nearest.map(n -> "; did you mean '" + n + "'?").orElse("")
                        + " (tracesync's keys: docs/STREAMS.md, Configuration)");
            }
        }
    }

    /** tracesync's key with the fewest edits from {@code key}. */
    static Optional<String> nearest(String key) {
        return OURS.stream().min(Comparator.<String>comparingInt(k -> distance(key, k)).thenComparing(k -> k));
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
