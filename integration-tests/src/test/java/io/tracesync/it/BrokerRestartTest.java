package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.environment.LocalKafka;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker stops for a few seconds while the application processes, then comes back on the same ports and data:
 * the application recovers by itself and its factors are the offline answer. A broker of its own, so the shared one
 * stays up for the other tests; the shared registry.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class BrokerRestartTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Duration OUTAGE = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    void theApplicationRidesOutABrokerRestart() throws Exception {
        SimulatedTraces cluster = SimulatedTraces.run(6, 20_000_000_000L, 41);
        int half = cluster.events.size() / 2;
        try (LocalKafka broker = LocalKafka.start(Path.of("target", "broker-restart").toAbsolutePath())) {
            Settings settings = Settings.of(Map.of(
                    "bootstrap.servers", broker.bootstrapServers(),
                    "schema.registry.url", SharedKafkaEnvironment.registryUrl(),
                    "application.id", "it-broker-restart",
                    "state.dir", dir.resolve("state").toString(),
                    "factors.min.change", "0",
                    "links.min.change", "0"));
            try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
                // Before the application starts: its pattern subscription would see them only at a metadata refresh.
                writer.createTopics(cluster.nodes);
            }
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                write(settings, cluster.events.subList(0, half));
                Waiting.until(() -> app.stats().events.get() > half / 2, WAIT, "the first half not under way");
                long before = app.stats().events.get();
                broker.restart(OUTAGE);
                write(settings, cluster.events.subList(half, cluster.events.size()));
                FactorAnswers.await(settings, OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                        settings.networkOptions()), WAIT);
                System.out.printf("broker restart: %d of %d events processed when the broker stopped%n", before,
                        cluster.events.size());
                assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
            }
        }
    }

    /**
     * Writes with a producer of its own: an idempotent producer kept open across the broker restart was once refused
     * for good afterwards (OUT_OF_ORDER_SEQUENCE_NUMBER, its sequence restarted at 0 against the broker's 31), and
     * the application, not the test's producer, is what this test is about.
     */
    private static void write(Settings settings, List<TraceEvent> events) {
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            events.forEach(writer::write);
            writer.flush();
        }
    }
}
