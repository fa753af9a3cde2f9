package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.OfflineSync;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second instance of the same application joins while the first processes and leaves again: tasks move to it
 * and back (three partitions per topic, so there are tasks to share), with their state through the changelogs, and
 * the factors are still the offline answer.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class RebalanceTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aSecondInstanceJoinsAndLeavesWithoutChangingTheAnswer() throws Exception {
        String id = "it-rebalance-" + UUID.randomUUID();
        Settings settings = Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("topics.partitions", "3")
                .with("factors.min.change", "0")
                .with("links.min.change", "0");
        SimulatedTraces cluster = SimulatedTraces.run(6, 30_000_000_000L, 51);
        int third = cluster.events.size() / 3;
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            // Before the application starts: its pattern subscription would see them only at a metadata refresh.
            writer.createTopics(cluster.nodes);
            try (TracesyncApp first = TracesyncApp.start(settings.with("state.dir", dir.resolve("a").toString()))) {
                cluster.events.subList(0, third).forEach(writer::write);
                writer.flush();
                assertTrue(first.awaitRunning(WAIT), "first instance running");
                int joined;
                Settings other = settings.with("state.dir", dir.resolve("b").toString());
                try (TracesyncApp second = TracesyncApp.start(other)) {
                    cluster.events.subList(third, 2 * third).forEach(writer::write);
                    writer.flush();
                    Waiting.until(() -> activeTasks(second) > 0
                            && second.streams().state() == KafkaStreams.State.RUNNING
                            && first.streams().state() == KafkaStreams.State.RUNNING, WAIT, "no task moved");
                    joined = activeTasks(second);
                    second.streams().close(CloseOptions.groupMembershipOperation(
                            CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(WAIT));
                }
                cluster.events.subList(2 * third, cluster.events.size()).forEach(writer::write);
                writer.flush();
                FactorAnswers.await(settings, OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                        settings.networkOptions()), WAIT);
                Waiting.until(() -> first.streams().state() == KafkaStreams.State.RUNNING, WAIT, "first not running");
                int total = activeTasks(first);
                System.out.printf("rebalance: the second instance held %d of %d tasks%n", joined, total);
                assertTrue(joined < total, "the first instance kept some tasks");
            }
        }
    }

    private static int activeTasks(TracesyncApp app) {
        return app.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }
}
