package io.tracesync.schema;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;

/**
 * The serde settings, read from a Kafka configuration map under Confluent's keys. {@link #toString()} never shows
 * the credentials.
 *
 * @param urls registries to try in order ({@value #URL}, comma-separated); one {@code mock://SCOPE} for tests
 * @param autoRegister register the record's schema when serializing ({@value #AUTO_REGISTER}, default true), else
 *     only look its id up
 * @param userInfo {@code user:password} sent as HTTP basic auth, or null ({@value #CREDENTIALS_SOURCE} =
 *     {@code USER_INFO} with {@value #USER_INFO})
 * @param keyStrategy subject of key schemas ({@value #KEY_STRATEGY}, default TopicNameStrategy)
 * @param valueStrategy subject of value schemas ({@value #VALUE_STRATEGY}, default TopicNameStrategy)
 * @param requestTimeout time allowed to each registry request ({@value #REQUEST_TIMEOUT}, default 30 s)
 * @param retries how often, and after how long, a request is repeated while the registry is unavailable
 */
public record SerdeConfig(List<String> urls, boolean autoRegister, String userInfo, SubjectNameStrategy keyStrategy,
        SubjectNameStrategy valueStrategy, Duration requestTimeout, Retries retries) {

    /**
     * Confluent's client settings for an unavailable registry: up to {@value #MAX_RETRIES} (default 3) more attempts,
     * the first after {@value #RETRIES_WAIT} (default 1 s), each wait doubled up to {@value #RETRIES_MAX_WAIT}
     * (default 20 s).
     */
    public record Retries(int max, Duration firstWait, Duration maxWait) {

        /** The wait before retry {@code n} (1, 2, ...). */
        public Duration before(int n) {
            long millis = firstWait.toMillis() << Math.min(n - 1, 30);
            return Duration.ofMillis(Math.min(millis < 0 ? Long.MAX_VALUE : millis, maxWait.toMillis()));
        }
    }

    public static final String URL = "schema.registry.url";
    public static final String AUTO_REGISTER = "auto.register.schemas";
    public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String USER_INFO = "basic.auth.user.info";
    public static final String KEY_STRATEGY = "key.subject.name.strategy";
    public static final String VALUE_STRATEGY = "value.subject.name.strategy";
    public static final String REQUEST_TIMEOUT = "schema.registry.request.timeout.ms";
    public static final String MAX_RETRIES = "max.retries";
    public static final String RETRIES_WAIT = "retries.wait.ms";
    public static final String RETRIES_MAX_WAIT = "retries.max.wait.ms";

    private static final String MOCK = "mock://";

    public SerdeConfig {
        urls = List.copyOf(urls);
        if (urls.isEmpty()) {
            throw new ConfigException(URL + " is not set");
        }
        if (urls.size() > 1 && urls.stream().anyMatch(u -> u.startsWith(MOCK))) {
            throw new ConfigException(URL, String.join(",", urls), "a mock:// registry must be the only one");
        }
    }

    /** The settings in {@code configs}; a ConfigException names the first bad key. */
    public static SerdeConfig parse(Map<String, ?> configs) {
        List<String> urls = urls(configs.get(URL));
        boolean autoRegister = Boolean.parseBoolean(string(configs, AUTO_REGISTER, "true"));
        String source = string(configs, CREDENTIALS_SOURCE, "URL");
        String userInfo = null;
        if (source.equals("USER_INFO")) {
            userInfo = string(configs, USER_INFO, "");
            if (!userInfo.contains(":")) {
                throw new ConfigException(USER_INFO + " must be user:password when " + CREDENTIALS_SOURCE
                        + " is USER_INFO");
            }
        } else if (!source.equals("URL")) {
            throw new ConfigException(CREDENTIALS_SOURCE, source, "supported: USER_INFO, or URL without credentials");
        }
        long timeout = number(configs, REQUEST_TIMEOUT, 30_000, 1);
        Retries retries = new Retries((int) number(configs, MAX_RETRIES, 3, 0),
                Duration.ofMillis(number(configs, RETRIES_WAIT, 1000, 0)),
                Duration.ofMillis(number(configs, RETRIES_MAX_WAIT, 20_000, 0)));
        return new SerdeConfig(urls, autoRegister, userInfo, strategy(configs, KEY_STRATEGY),
                strategy(configs, VALUE_STRATEGY), Duration.ofMillis(timeout), retries);
    }

    private static long number(Map<String, ?> configs, String key, long missing, long least) {
        long value;
        try {
            value = Long.parseLong(string(configs, key, Long.toString(missing)));
        } catch (NumberFormatException e) {
            throw new ConfigException(key, configs.get(key), "not a whole number");
        }
        if (value < least || (key.equals(MAX_RETRIES) && value > Integer.MAX_VALUE)) {
            throw new ConfigException(key, value, "must be at least " + least);
        }
        return value;
    }

    /** The subject name strategy of keys ({@code isKey}) or values. */
    public SubjectNameStrategy strategy(boolean isKey) {
        return isKey ? keyStrategy : valueStrategy;
    }

    /** A client of the configured registry: the shared in-memory one of a {@code mock://} scope, else REST. */
    public SchemaRegistryClient client() {
        String first = urls.get(0);
        return first.startsWith(MOCK) ? MockSchemaRegistry.scope(first.substring(MOCK.length()))
                : new RestSchemaRegistryClient(this);
    }

    @Override
    public String toString() {
        return "SerdeConfig[urls=" + urls + ", autoRegister=" + autoRegister + ", basicAuth="
                + (userInfo == null ? "none" : "USER_INFO(hidden)") + ", keyStrategy=" + keyStrategy
                + ", valueStrategy=" + valueStrategy + ", requestTimeout=" + requestTimeout + ", retries=" + retries + "]";
    }

    private static List<String> urls(Object value) {
        String joined = value instanceof Collection<?> c
                ? c.stream().map(String::valueOf).collect(Collectors.joining(","))
                : value == null ? "" : value.toString();
        return Arrays.stream(joined.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static SubjectNameStrategy strategy(Map<String, ?> configs, String key) {
        Object value = configs.get(key);
        if (value instanceof Class<?> c) {
            value = c.getName();
        }
        return value == null ? SubjectNameStrategy.TOPIC_NAME : SubjectNameStrategy.named(key, value.toString());
    }

    private static String string(Map<String, ?> configs, String key, String missing) {
        Object value = configs.get(key);
        return value == null ? missing : value.toString().trim();
    }
}
