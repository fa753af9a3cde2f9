package io.tracesync.streams;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.core.network.SummaryGate;
import io.tracesync.schema.SerdeConfig;
import io.tracesync.streams.config.KnownKeys;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.errors.DeadLetterClientSupplier;
import io.tracesync.streams.errors.DeserializationHandler;
import io.tracesync.streams.errors.ProcessingHandler;
import io.tracesync.streams.errors.ProductionHandler;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The application's configuration, layered like other Kafka Streams applications: built-in defaults, then a
 * properties file, then environment variables ({@code TRACESYNC_BOOTSTRAP_SERVERS} → {@code bootstrap.servers}:
 * prefix dropped, lower case, {@code _} → {@code .}), then command-line flags. tracesync's own keys are declared in
 * {@link TracesyncConfig} and validated when the settings are made; Kafka Streams, client and schema-registry keys
 * are checked against Kafka's own definitions; a key that looks like a misspelt key is refused, one that nothing
 * knows is a warning ({@link KnownKeys}).
 */
public final class Settings {

    /** The Kafka Streams and client keys whose defaults tracesync changes, and the registry's address. */
    public static final Map<String, String> KAFKA_DEFAULTS = kafkaDefaults();
    /** Every default: tracesync's keys ({@link TracesyncConfig#CONFIG}) and {@link #KAFKA_DEFAULTS}. */
    public static final Map<String, String> DEFAULTS = defaults();

    private static final String ENV_PREFIX = "TRACESYNC_";
    /** Variables of the launcher and the local environment, not configuration keys. */
    private static final Set<String> NOT_KEYS = Set.of("TRACESYNC_JAVA_OPTS", "TRACESYNC_REGISTRY_JAVA");
    /** Secrets never printed by {@link #describe()}. */
    private static final Pattern SECRET = Pattern.compile(
            "(?i).*(password|secret|jaas|user\\.info|credentials|keystore\\.key|token).*");

    private final Map<String, String> values;
    private final TracesyncConfig config;
    private final List<String> warnings;

    /** @throws ConfigException if a key has an invalid value or an unknown key looks like a misspelt one */
    private Settings(Map<String, String> values) {
        this.warnings = KnownKeys.check(values);
        this.values = values;
        this.config = new TracesyncConfig(withoutDigitGroups(values));
        String regions = get(TracesyncConfig.NETWORK_REGIONS_CONFIG);
        if (!regions.isEmpty() && duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG).isZero()) {
            throw new ConfigException(TracesyncConfig.NETWORK_REGIONS_CONFIG, regions, "regions exchange factors "
                    + "at each emission: they need a " + TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG + " above 0 "
                    + "(the deterministic mode solves the network whole)");
        }
        if (!regions.isEmpty() && bool(TracesyncConfig.LINKS_WITH_NETWORK_CONFIG)) {
            throw new ConfigException(TracesyncConfig.NETWORK_REGIONS_CONFIG, regions, "regions have no one network "
                    + "task to run the link step in: leave " + TracesyncConfig.LINKS_WITH_NETWORK_CONFIG + " false");
        }
        if (ApplicationGroup.protocolOf(this) == ApplicationGroup.Protocol.STREAMS
                && get(TracesyncConfig.TRACES_TOPIC_CONFIG).isEmpty()) {
            throw new ConfigException(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "streams", "Kafka Streams' own rebalance "
                    + "protocol reads no topic pattern (Kafka 4.4), and the trace topics are read by one: write the "
                    + "traces to one multiplexed topic and name it in " + TracesyncConfig.TRACES_TOPIC_CONFIG);
        }
    }

    /** Integers may be written with digit groups, {@code 1_000_000}, as in Java. */
    private static Map<String, String> withoutDigitGroups(Map<String, String> values) {
        Map<String, String> v = new TreeMap<>(values);
        TracesyncConfig.CONFIG.configKeys().forEach((k, key) -> {
            if (v.containsKey(k) && (key.type == ConfigDef.Type.INT || key.type == ConfigDef.Type.SHORT
                    || key.type == ConfigDef.Type.LONG)) {
                v.put(k, v.get(k).replace("_", ""));
            }
        });
        return v;
    }

    // processing.exception.handler.global.enabled: deprecated by Kafka 4.4, which warns while it is off and turns it
    // on for good with 5.0
    @SuppressWarnings("deprecation")
    private static Map<String, String> kafkaDefaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(StreamsConfig.APPLICATION_ID_CONFIG, "tracesync");
        d.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        d.put(SerdeConfig.URL, "http://127.0.0.1:8081/apis/ccompat/v7");
        d.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // KIP-892: after a crash under exactly_once_v2 the stores are kept, what followed the last commit rolled
        // back, instead of wiped and restored from their changelogs (docs/DEPLOYMENT.md)
        d.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true");
        d.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, "true");
        d.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeserializationHandler.class.getName());
        d.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, ProcessingHandler.class.getName());
        d.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        d.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ProductionHandler.class.getName());
        // producers that hold the dead-letter topic's metadata before a refused write needs it
        d.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, DeadLetterClientSupplier.class.getName());
        // a forest snapshot of 60,000 nodes is 1.1 MB (Topics.MAX_RECORD_BYTES)
        d.put(StreamsConfig.PRODUCER_PREFIX + ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                Integer.toString(Topics.MAX_RECORD_BYTES));
        return Collections.unmodifiableMap(d);
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>(KAFKA_DEFAULTS);
        TracesyncConfig.CONFIG.configKeys().forEach((k, key) ->
                d.put(k, ConfigDef.convertToString(key.defaultValue, key.type)));
        return Collections.unmodifiableMap(d);
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
            if (k.startsWith(ENV_PREFIX) && !NOT_KEYS.contains(k)) {
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
    public static String envKey(String name) {
        String k = name.substring(ENV_PREFIX.length());
        return switch (k) {
            case "BOOTSTRAP" -> StreamsConfig.BOOTSTRAP_SERVERS_CONFIG;
            case "REGISTRY_URL" -> SerdeConfig.URL;
            default -> k.toLowerCase(Locale.ROOT).replace('_', '.');
        };
    }

    /** One line per key that nothing knows, which Kafka will ignore ({@link KnownKeys#check}). */
    public List<String> warnings() {
        return warnings;
    }

    public String get(String key) {
        return values.get(key);
    }

    public Settings with(String key, String value) {
        Map<String, String> v = new TreeMap<>(values);
        v.put(key, value);
        return new Settings(v);
    }

    /** A duration key of {@link TracesyncConfig}. */
    public Duration duration(String key) {
        return config.getDuration(key);
    }

    /** A double key of {@link TracesyncConfig}. */
    public double number(String key) {
        return config.getDouble(key);
    }

    /** An integer (int, short or long) key of {@link TracesyncConfig}. */
    public long integer(String key) {
        return ((Number) config.values().get(key)).longValue();
    }

    /** A boolean key of {@link TracesyncConfig}. */
    public boolean bool(String key) {
        return config.getBoolean(key);
    }

    public LinkOptions linkOptions() {
        long minDelay = duration(TracesyncConfig.LINK_MIN_DELAY_CONFIG).toNanos();
        long horizon = duration(TracesyncConfig.LINK_HORIZON_CONFIG).toNanos();
        LinkOptions model = LinkOptions.withModel(horizon, minDelay, minDelay,
                horizon == 0 ? null : config.getDouble(TracesyncConfig.LINK_CURVATURE_CONFIG),
                duration(TracesyncConfig.LINK_WINDOW_MIN_CONFIG).toNanos());
        double steps = config.getDouble(TracesyncConfig.LINK_STEP_PPB_CONFIG);
        LinkOptions stepping = steps == 0 ? model
                : model.withSteps(steps, duration(TracesyncConfig.LINK_STEP_INTERVAL_CONFIG).toNanos());
        return stepping.withMaxDrift(config.getDouble(TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG))
                .withExcursion(duration(TracesyncConfig.LINK_EXCURSION_CONFIG).toNanos());
    }

    public NetworkOptions networkOptions() {
        NetworkOptions o = NetworkOptions.DEFAULT
                .withWeight(LinkWeight.parse(config.getString(TracesyncConfig.NETWORK_WEIGHT_CONFIG)))
                .withMethod(NetworkMethod.parse(config.getString(TracesyncConfig.NETWORK_METHOD_CONFIG)))
                .withReferenceRule(ReferenceRule.parse(config.getString(TracesyncConfig.NETWORK_REFERENCE_RULE_CONFIG)))
                .withWeightSpread(SummaryGate.weightSpread(number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG)))
                .withExcursion(linkOptions().excursionPs());
        String approximate = config.getString(TracesyncConfig.NETWORK_APPROXIMATE_WEIGHT_CONFIG);
        if (!approximate.equals(TracesyncConfig.NONE)) {
            o = o.withApproximate(Double.parseDouble(approximate));
        }
        String pinned = config.getString(TracesyncConfig.NETWORK_REFERENCE_CONFIG);
        return pinned.isEmpty() ? o : o.withPinnedReference(pinned);
    }

    /** The regions the network is solved in ({@code network.regions}), or null: the network solved whole. */
    public RegionPattern regions() {
        String regex = config.getString(TracesyncConfig.NETWORK_REGIONS_CONFIG);
        return regex.isEmpty() ? null : RegionPattern.of(regex);
    }

    /** Every key for Kafka Streams and its clients (tracesync's own keys are ignored there as unknown). */
    @SuppressWarnings("deprecation") // processing.exception.handler.global.enabled, as above
    public Properties streamsProperties() {
        Properties p = new Properties();
        values.forEach(p::setProperty);
        p.setProperty(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
                config.getString(TracesyncConfig.DLQ_TOPIC_CONFIG));
        // Kafka Streams' partition assignor builds a StreamsConfig of its own from the main consumer's configs,
        // which leave this key out, and that one warns that the handler is off for global stores (Kafka 4.3.1 and
        // 4.4.0, AssignorConfiguration): the main consumer gets the key too (an unused consumer key logs at info only).
        String global = StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG;
        if (values.containsKey(global)) {
            p.setProperty(StreamsConfig.mainConsumerPrefix(global), values.get(global));
        }
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
