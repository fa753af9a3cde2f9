package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.OfflineSync;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.ApplicationReset;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.health.GroupStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.CloseOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application under Kafka Streams' own rebalance protocol ({@code group.protocol=streams}, a streams group on
 * the broker [KIP-1071]) with static membership, the traces in one topic (the protocol reads no pattern): it gives
 * the offline answer; the standbys and session timeout of its settings are the group's configuration on the broker;
 * and what reads its group from the broker (the input lag of {@code replay} and the fault runner, which member runs
 * the network task, the reset) reads a streams group as it reads a consumer group.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class StreamsProtocolTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aStreamsGroupGivesTheOfflineAnswerAndIsReadLikeAConsumerGroup() throws Exception {
        String id = "it-streams-protocol-" + UUID.randomUUID();
        Settings settings = classic(id)
                .with("group.protocol", "streams")
                .with("group.instance.id", id + "-a")
                .with("num.standby.replicas", "1")
                .with("session.timeout.ms", "3000")
                .with("heartbeat.interval.ms", "500");
        SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 17);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings);
                Admin admin = Admin.create(settings.streamsProperties())) {
            writer.createTopics(cluster.nodes);
            ApplicationGroup group = ApplicationGroup.of(admin, settings);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.forEach(writer::write);
                writer.flush();
                assertTrue(app.awaitRunning(WAIT), "running");
                FactorAnswers.await(settings, OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                        settings.networkOptions()), WAIT);
                InputLag lag = new InputLag(admin, settings);
                Waiting.until(() -> noLag(lag), WAIT, "input lag not 0");
                ApplicationGroup.Description d = group.describe();
                assertEquals(ApplicationGroup.Protocol.STREAMS, d.protocol());
                assertEquals(1, group.standbyReplicas(settings), "the group's config on the broker");
                assertEquals(3000, group.sessionTimeoutMs(settings), "the group's config on the broker");
                assertEquals(new GroupStatus("streams", "STABLE", 1, 1, null), GroupStatus.of(group, settings),
                        "what /health tells of the group");
                assertEquals(GroupState.STABLE, d.state());
                ApplicationGroup.Member network = d.holder(new TopicPartition(InternalTopics.networkTaskInput(
                        settings), 0)).orElseThrow(() -> new AssertionError("no member runs the network task: " + d));
                assertTrue(network.name().startsWith(id + "-a"), network::toString);
                assertTrue(group.committed().containsKey(new TopicPartition(id + ".traces", 0)),
                        "the trace topic's offset committed: " + group.committed());
                app.streams().close(CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(WAIT));
            }
            ApplicationReset.Result reset = ApplicationReset.reset(admin, settings);
            assertEquals(List.of(id + ".traces"), reset.inputs(), reset::toString);
            assertEquals(cluster.events.size(), group.lag(reset.inputs()), "every trace record to be read again");
        }
    }

    /**
     * The upgrade of a running deployment: an application that ran under the classic protocol, stopped (every
     * instance gone from the group), starts again under the streams protocol on the same state directories. The
     * broker converts the empty consumer group into a streams group with its committed offsets [KIP-1071, offline
     * migration]: the instance reads on from where the classic group stopped and the answer is the offline one.
     */
    /**
     * A heartbeat below the broker's {@code group.streams.min.heartbeat.interval.ms} (250 ms here) is raised to it,
     * and said so: the session timeout and the standbys of the same settings are the group's (before, the whole
     * configuration was refused and the broker's 45 s session stayed).
     */
    @Test
    void aHeartbeatBelowTheBrokersMinimumIsRaisedToItAndTheRestIsSet() throws Exception {
        String id = "it-streams-refused-" + UUID.randomUUID();
        Settings settings = classic(id).with("group.protocol", "streams").with("num.standby.replicas", "1")
                .with("session.timeout.ms", "3000").with("heartbeat.interval.ms", "100");
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            ApplicationGroup.Configured c = ApplicationGroup.of(admin, settings).configure(settings);
            assertEquals(List.of("streams.heartbeat.interval.ms"), List.copyOf(c.refused().keySet()), c::toString);
            assertTrue(c.refused().get("streams.heartbeat.interval.ms").equals("100 raised to the brokers' "
                    + "minimum group.streams.min.heartbeat.interval.ms=250"), c::toString);
            assertEquals("250", c.set().get("streams.heartbeat.interval.ms"), c::toString);
            assertEquals("3000", c.set().get("streams.session.timeout.ms"), c::toString);
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, id);
            Config onBroker = admin.describeConfigs(List.of(group)).all().get().get(group);
            assertEquals("3000", onBroker.get("streams.session.timeout.ms").value());
            assertEquals("1", onBroker.get("streams.num.standby.replicas").value());
            assertEquals("250", onBroker.get("streams.heartbeat.interval.ms").value());
        }
    }

    @Test
    void anEmptyClassicGroupIsTakenOverWithItsOffsets() throws Exception {
        String id = "it-streams-upgrade-" + UUID.randomUUID();
        Settings classic = classic(id);
        Settings streams = classic.with("group.protocol", "streams");
        SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 23);
        int half = cluster.events.size() / 2;
        try (TraceTopicWriter writer = new TraceTopicWriter(classic);
                Admin admin = Admin.create(classic.streamsProperties())) {
            writer.createTopics(cluster.nodes);
            cluster.events.subList(0, half).forEach(writer::write);
            writer.flush();
            InputLag lag = new InputLag(admin, classic);
            try (TracesyncApp app = TracesyncApp.start(classic)) {
                Waiting.until(() -> noLag(lag), WAIT, "the classic group did not finish the first half");
                app.streams().close(CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(WAIT));
            }
            assertEquals(ApplicationGroup.Protocol.CLASSIC, ApplicationGroup.of(admin, classic).describe()
                    .protocol());
            cluster.events.subList(half, cluster.events.size()).forEach(writer::write);
            writer.flush();
            try (TracesyncApp app = TracesyncApp.start(streams)) {
                FactorAnswers.await(streams, OfflineSync.factors(cluster.pairs, streams.linkOptions(),
                        streams.networkOptions()), WAIT);
                Waiting.until(() -> noLag(new InputLag(admin, streams)), WAIT, "input lag not 0");
                assertEquals(ApplicationGroup.Protocol.STREAMS, ApplicationGroup.of(admin, streams).describe()
                        .protocol(), "the group converted");
                // the events it matched: the new half and what the classic group had repartitioned and not yet
                // matched; read again from the start, they would be every event and that backlog
                long read = app.stats().events.get();
                assertTrue(read > 0 && read < cluster.events.size(), "read on from the classic group's offsets: "
                        + read + " events matched, " + (cluster.events.size() - half) + " new");
                app.streams().close(CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(WAIT));
            }
            try (TracesyncApp app = TracesyncApp.start(classic)) {
                assertTrue(app.awaitRunning(WAIT), "back under the classic protocol");
                assertEquals(ApplicationGroup.Protocol.CLASSIC, ApplicationGroup.of(admin, classic).describe()
                        .protocol(), "the group converted back");
                assertEquals(0, new InputLag(admin, classic).records(), "the streams group's offsets kept");
                assertEquals(0, app.stats().events.get(), "nothing read again");
            }
        }
    }

    /** An application of its own under the classic protocol, its traces in one topic, every change published. */
    private Settings classic(String id) {
        return Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("traces.topic", id + ".traces")
                .with("factors.min.change", "0")
                .with("links.min.change", "0")
                .with("state.dir", dir.toString());
    }

    private static boolean noLag(InputLag lag) {
        try {
            return lag.records() == 0;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
