package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.environment.LocalRegistry;
import io.tracesync.streams.Settings;
import io.tracesync.streams.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema registry goes away while the application runs: once every schema id it meets is cached (by the first
 * part of the input), it needs no registry, and the rest of the input is matched and fed to the links and the
 * network as if nothing happened. A registry of its own (stopped, then restarted empty on the same port), the
 * shared broker.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class RegistryOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void cachedSchemaIdsCarryTheApplicationThroughARegistryOutage() throws Exception {
        SimulatedTraces cluster = SimulatedTraces.run(4, 10_000_000_000L, 61);
        int half = cluster.events.size() / 2;
        String id = "it-registry-" + UUID.randomUUID();
        try (LocalRegistry registry = LocalRegistry.start(Path.of("target", "registry-outage").toAbsolutePath())) {
            Settings settings = Settings.of(Map.of(
                    "bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                    "schema.registry.url", registry.url(),
                    "application.id", id,
                    "state.dir", dir.resolve("state").toString(),
                    "traces.topic.prefix", id + ".",
                    "traces.pattern", id + "\\..+",
                    "factors.topic", "sync.factors-" + id,
                    "tree.topic", "sync.tree-" + id,
                    "links.topic", "sync.links-" + id,
                    "dlq.topic", "sync.dlq-" + id))
                    .with("factors.min.change", "0")
                    .with("links.min.change", "0");
            try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
                // Before the application starts: its pattern subscription would see them only at a metadata refresh.
                writer.createTopics(cluster.nodes);
                try (TracesyncApp app = TracesyncApp.start(settings)) {
                    cluster.events.subList(0, half).forEach(writer::write);
                    writer.flush();
                    Waiting.until(() -> app.stats().events.get() == half && app.stats().factorRecords.get() > 0, WAIT,
                            "the first half not processed");
                    registry.stop();
                    long factorsBefore = app.stats().factorRecords.get();
                    cluster.events.subList(half, cluster.events.size()).forEach(writer::write);
                    writer.flush();
                    Waiting.until(() -> app.stats().pairs.get() == cluster.pairs.size(), WAIT,
                            "the second half not matched while the registry was down");
                    Waiting.until(() -> app.stats().factorRecords.get() > factorsBefore, WAIT,
                            "no factor emitted while the registry was down");
                    assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
                    registry.restart();
                }
            }
        }
    }
}
