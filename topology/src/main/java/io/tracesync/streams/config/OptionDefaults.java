package io.tracesync.streams.config;

import org.apache.kafka.common.config.ConfigDef;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The default of a command-line option that stands for an application key — its {@code descriptionKey} the key, as
 * {@code --horizon} stands for {@code link.horizon} — is that key's default in {@link TracesyncConfig#CONFIG}: the
 * defaults are written once, where the keys are declared, and {@code ${DEFAULT-VALUE}} in the option's description
 * shows it. A command names this class as its {@code defaultValueProvider}; other options keep their own.
 */
public final class OptionDefaults implements IDefaultValueProvider {

    @Override
    public String defaultValue(ArgSpec arg) {
        ConfigDef.ConfigKey key = keyOf(arg);
        return key == null || key.defaultValue == null ? null : String.valueOf(key.defaultValue);
    }

    /** The application key an option stands for, or null. */
    public static ConfigDef.ConfigKey keyOf(ArgSpec arg) {
        if (!(arg instanceof OptionSpec o) || o.descriptionKey() == null || o.descriptionKey().isEmpty()) {
            return null;
        }
        return TracesyncConfig.CONFIG.configKeys().get(o.descriptionKey());
    }
}
