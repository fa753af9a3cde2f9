package io.tracesync.console;

import io.tracesync.streams.Settings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The configuration options of the commands that talk to Kafka, layered as {@code run} layers them
 * ({@link Settings#load}: defaults, {@code --config FILE}, {@code TRACESYNC_<KEY>} variables, then flags). A key
 * that nothing knows is a warning on the command's error stream.
 */
public final class SettingsOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--config", paramLabel = "FILE", description = "A properties file of configuration keys.")
    Path config;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]", description = "Kafka brokers.")
    String bootstrap;

    @Option(names = "--schema-registry-url", paramLabel = "URL",
            description = "Confluent-compatible schema registry (e.g. Apicurio's http://HOST:PORT/apis/ccompat/v7).")
    String registry;

    @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
            description = "Any configuration key (tracesync's: docs/STREAMS.md, Configuration).")
    Map<String, String> set = new LinkedHashMap<>();

    /** Sets a key as {@code -D key=value} would (a command's own flag for it, given, wins over -D). */
    public void set(String key, String value) {
        set.put(key, value);
    }

    /** The effective settings. */
    public Settings load() throws IOException {
        Map<String, String> flags = new LinkedHashMap<>(set);
        if (bootstrap != null) {
            flags.put("bootstrap.servers", bootstrap);
        }
        if (registry != null) {
            flags.put("schema.registry.url", registry);
        }
        Settings settings = Settings.load(config, System.getenv(), flags);
        settings.warnings().forEach(w -> command.commandLine().getErr().println("warning: " + w));
        command.commandLine().getErr().flush();
        return settings;
    }
}
