package io.tracesync.it;

import io.tracesync.environment.KafkaEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * One {@link KafkaEnvironment} for every test class of this JVM that extends with it: started by the first,
 * stopped when the whole run ends. Its files go to {@code target/kafka-environment}.
 */
public final class SharedKafkaEnvironment implements BeforeAllCallback {
    private static final Namespace NAMESPACE = Namespace.create(SharedKafkaEnvironment.class);
    private static final Path WORK_DIR = Path.of("target", "kafka-environment");
    private static volatile KafkaEnvironment environment;

    @Override
    public void beforeAll(ExtensionContext context) {
        environment = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Shared.class, key -> Shared.start(), Shared.class).environment();
    }

    /** The broker's bootstrap servers; valid once the extension ran. */
    public static String bootstrapServers() {
        return started().bootstrapServers();
    }

    /** The Confluent-compatible registry base URL; valid once the extension ran. */
    public static String registryUrl() {
        return started().registryUrl();
    }

    /**
     * Settings on the shared services whose application id, input topics ({@code <id>.<node>}) and output topics
     * ({@code sync.factors-<id>} ...) belong to {@code id} alone, so tests never see each other's records.
     */
    public static Map<String, String> isolated(String id) {
        return Map.of(
                "bootstrap.servers", bootstrapServers(),
                "schema.registry.url", registryUrl(),
                "application.id", id,
                "traces.topic.prefix", id + ".",
                "traces.pattern", Pattern.quote(id) + "\\..+",
                "factors.topic", "sync.factors-" + id,
                "tree.topic", "sync.tree-" + id,
                "links.topic", "sync.links-" + id,
                "dlq.topic", "sync.dlq-" + id);
    }

    private static KafkaEnvironment started() {
        KafkaEnvironment started = environment;
        if (started == null) {
            throw new IllegalStateException("no Kafka environment: annotate the test class with"
                    + " @ExtendWith(SharedKafkaEnvironment.class)");
        }
        return started;
    }

    /** The environment in the root store, which closes it at the end of the run. */
    private record Shared(KafkaEnvironment environment) implements ExtensionContext.Store.CloseableResource {
        static Shared start() {
            try {
                return new Shared(KafkaEnvironment.start(WORK_DIR.toAbsolutePath()));
            } catch (IOException e) {
                throw new UncheckedIOException("the Kafka environment did not start", e);
            }
        }

        @Override
        public void close() {
            environment.close();
        }
    }
}
