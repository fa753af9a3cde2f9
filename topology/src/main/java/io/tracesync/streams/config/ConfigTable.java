package io.tracesync.streams.config;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The key tables of docs/STREAMS.md, generated from the declarations: tracesync's keys in the order
 * {@link TracesyncConfig#CONFIG} declares them, and the Kafka keys whose defaults tracesync changes.
 */
public final class ConfigTable {

    private ConfigTable() {
    }

    /** tracesync's keys: key, type, default, valid values, importance, meaning. */
    public static String tracesyncKeys() {
        StringBuilder b = new StringBuilder("| key | type | default | valid values | importance | meaning |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey k : TracesyncConfig.CONFIG.configKeys().values()) {
            b.append("| `").append(k.name).append("` | ").append(type(k)).append(" | ")
                    .append(code(ConfigDef.convertToString(k.defaultValue, k.type))).append(" | ")
                    .append(k.validator == null ? "" : escape(k.validator.toString())).append(" | ")
                    .append(k.importance.name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(escape(k.documentation)).append(" |\n");
        }
        return b.toString();
    }

    /** The Kafka Streams and client keys whose defaults tracesync sets differently. */
    public static String kafkaDefaults(Map<String, String> defaults) {
        StringBuilder b = new StringBuilder("| key | tracesync's default |\n|---|---|\n");
        defaults.forEach((k, v) -> b.append("| `").append(k).append("` | ").append(code(v)).append(" |\n"));
        return b.toString();
    }

    private static String type(ConfigDef.ConfigKey k) {
        String t = k.type.name().toLowerCase(Locale.ROOT);
        return k.validator != null && k.validator.toString().startsWith("a duration") ? "duration" : t;
    }

    private static String code(String value) {
        return value == null || value.isEmpty() ? "(empty)" : "`" + value + "`";
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }
}
