package io.tracesync.testkit;

import io.tracesync.environment.KafkaEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * A run's broker and registry (a benchmark's, a fault run's): the ones given, else the local environment started
 * under the work directory.
 */
public final class ServicesOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Use this Kafka cluster instead of starting a broker (also: TRACESYNC_BOOTSTRAP).")
    private String bootstrap;

    @Option(names = "--schema-registry-url", paramLabel = "URL",
            description = "Use this registry instead of starting one (also: TRACESYNC_REGISTRY_URL).")
    private String registry;

    /** The services given by option or environment variable; the missing ones started in {@code work/services}. */
    public KafkaEnvironment start(Path work) throws IOException {
        return KafkaEnvironment.start(work.resolve("services"), bootstrap(), registry());
    }

    /** The Kafka cluster given by option or environment variable, or null. */
    public String bootstrap() {
        return bootstrap != null ? bootstrap : System.getenv(KafkaEnvironment.BOOTSTRAP_VARIABLE);
    }

    /** The registry given by option or environment variable, or null. */
    public String registry() {
        return registry != null ? registry : System.getenv(KafkaEnvironment.REGISTRY_VARIABLE);
    }
}
