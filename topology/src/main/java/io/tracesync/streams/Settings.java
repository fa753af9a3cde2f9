package io.tracesync.streams;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.streams.errors.DeserializationHandler;
import io.tracesync.streams.errors.ProcessingHandler;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The application's configuration, layered like other Kafka Streams applications: built-in defaults, then a
 * properties file, then environment variables ({@code TRACESYNC_BOOTSTRAP_SERVERS} → {@code bootstrap.servers}:
 * prefix dropped, lower case, {@code _} → {@code .}), then command-line flags. Kafka Streams, client and
 * schema-registry keys pass through unchanged; tracesync's own keys are listed in {@link #DEFAULTS}.
 */
public final class Settings {

    /** tracesync's own keys with their defaults, and the Kafka Streams defaults tracesync changes. */
    public static final Map<String, String> DEFAULTS = defaults();

    private static final String ENV_PREFIX = "TRACESYNC_";
    /** Secrets never printed by {@link #describe()}. */
    private static final Pattern SECRET = Pattern.compile(
            "(?i).*(password|secret|jaas|user\\.info|credentials|keystore\\.key|token).*");

    private final Map<String, String> values;

    private Settings(Map<String, String> values) {
        this.values = values;
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(StreamsConfig.APPLICATION_ID_CONFIG, "tracesync");
        d.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        d.put("schema.registry.url", "http://127.0.0.1:8081/apis/ccompat/v7");
        d.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        d.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, "true");
        d.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeserializationHandler.class.getName());
        d.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, ProcessingHandler.class.getName());
        d.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        d.put("traces.pattern", "traces\\..+");
        d.put("traces.topic", "");
        d.put("traces.topic.prefix", "traces.");
        d.put("traces.partitioned.by.segment", "false");
        d.put("factors.topic", "sync.factors");
        d.put("tree.topic", "sync.tree");
        d.put("links.topic", "sync.links");
        d.put("dlq.topic", "sync.dlq");
        d.put("topics.partitions", "3");
        d.put("topics.replication.factor", "1");
        d.put("check.max.clock.jump", "1h");
        d.put("matcher.rotation", "30s");
        d.put("matcher.max.pending", "1000000");
        d.put("pairs.batched", "true");
        d.put("link.horizon", "30m");
        d.put("link.min.delay", "0ns");
        d.put("links.min.change", "0.01");
        d.put("links.with.network", "false");
        d.put("factors.emit.interval", "1s");
        d.put("factors.min.change", "0.1");
        d.put("network.weight", "slope-accuracy");
        d.put("network.method", "all-links");
        d.put("network.approximate.weight", "none");
        d.put("network.reference", "");
        d.put("http.host", "127.0.0.1");
        d.put("http.port", "8080");
        return Map.copyOf(d);
    }

    /** Defaults overlaid with the file (may be null), the environment and the flags, in that order. */
    public static Settings load(Path file, Map<String, String> env, Map<String, String> flags) throws IOException {
        Map<String, String> v = new TreeMap<>(DEFAULTS);
        if (file != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            }
            p.stringPropertyNames().forEach(k -> v.put(k, p.getProperty(k).strip()));
        }
        env.forEach((k, val) -> {
            if (k.startsWith(ENV_PREFIX)) {
                v.put(envKey(k), val);
            }
        });
        v.putAll(flags);
        return new Settings(v);
    }

    public static Settings of(Map<String, String> overrides) {
        Map<String, String> v = new TreeMap<>(DEFAULTS);
        v.putAll(overrides);
        return new Settings(v);
    }

    /** {@code TRACESYNC_BOOTSTRAP_SERVERS} → {@code bootstrap.servers}; the two short names of the local environment too. */
    static String envKey(String name) {
        String k = name.substring(ENV_PREFIX.length());
        return switch (k) {
            case "BOOTSTRAP" -> StreamsConfig.BOOTSTRAP_SERVERS_CONFIG;
            case "REGISTRY_URL" -> "schema.registry.url";
            default -> k.toLowerCase(Locale.ROOT).replace('_', '.');
        };
    }

    public String get(String key) {
        return values.get(key);
    }

    public Settings with(String key, String value) {
        Map<String, String> v = new TreeMap<>(values);
        v.put(key, value);
        return new Settings(v);
    }

    public Duration duration(String key) {
        try {
            return Durations.parse(get(key));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
    }

    public double number(String key) {
        try {
            return Double.parseDouble(get(key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + get(key) + "' is not a number");
        }
    }

    public long integer(String key) {
        try {
            return Long.parseLong(get(key).replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + get(key) + "' is not an integer");
        }
    }

    public boolean bool(String key) {
        return switch (get(key)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": '" + get(key) + "' is neither true nor false");
        };
    }

    public LinkOptions linkOptions() {
        long minDelay = duration("link.min.delay").toNanos();
        return new LinkOptions(duration("link.horizon").toNanos(), minDelay, minDelay);
    }

    public NetworkOptions networkOptions() {
        NetworkOptions o = NetworkOptions.DEFAULT.withWeight(LinkWeight.parse(get("network.weight")))
                .withMethod(NetworkMethod.parse(get("network.method")));
        String approximate = get("network.approximate.weight");
        if (!approximate.equals("none")) {
            o = o.withApproximate(number("network.approximate.weight"));
        }
        String pinned = get("network.reference");
        return pinned.isEmpty() ? o : o.withPinnedReference(pinned);
    }

    /** Every key for Kafka Streams and its clients (tracesync's own keys are ignored there as unknown). */
    public Properties streamsProperties() {
        Properties p = new Properties();
        values.forEach(p::setProperty);
        p.setProperty(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, get("dlq.topic"));
        return p;
    }

    /** Key/value serde configuration: every key (the serdes pick theirs, e.g. {@code schema.registry.url}). */
    public Map<String, String> serdeConfig() {
        return Map.copyOf(values);
    }

    /** The settings as printable lines, secrets masked. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        values.forEach((k, v) -> b.append(k).append(" = ").append(SECRET.matcher(k).matches() ? "[hidden]" : v)
                .append('\n'));
        return b.toString();
    }
}
