package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.OfflineSync;
import io.tracesync.environment.LocalRegistry;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.TracesyncTopology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema registry goes away. A running application whose schema ids are all cached (its outputs' and, since its
 * first commit, its write-back stores' changelogs') needs no registry: the rest of the input is matched and fed to
 * the links and the network as if nothing happened (a registry of its own, stopped, then restarted empty on the same
 * port). An application with empty caches that meets the input while the
 * registry is unreachable waits for it, dead-letters nothing, and gives the offline answer once it is back (the
 * shared registry behind a relay that is cut, then restored).
 */
@ExtendWith(SharedKafkaEnvironment.class)
class RegistryOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Duration OUTAGE = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    @Test
    void cachedSchemaIdsCarryTheApplicationThroughARegistryOutage() throws Exception {
        SimulatedTraces cluster = SimulatedTraces.run(4, 10_000_000_000L, 61);
        int half = cluster.events.size() / 2;
        String id = "it-registry-" + UUID.randomUUID();
        try (LocalRegistry registry = LocalRegistry.start(Path.of("target", "registry-outage").toAbsolutePath())) {
            Settings settings = settings(id, registry.url());
            try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
                // Before the application starts: its pattern subscription would see them only at a metadata refresh.
                writer.createTopics(cluster.nodes);
                try (TracesyncApp app = TracesyncApp.start(settings)) {
                    cluster.events.subList(0, half).forEach(writer::write);
                    writer.flush();
                    // every output's schema id cached: a factor, a link summary and a tree snapshot written
                    Waiting.until(() -> app.stats().events.get() == half && app.stats().factorRecords.get() > 0
                            && app.stats().linkSummaries.get() > 0 && app.stats().treeRecords.get() > 0, WAIT,
                            "the first half not processed");
                    // the link stores are written back at a commit, their changelogs' subjects registered then
                    for (String store : List.of(TracesyncTopology.LINK_STORE, TracesyncTopology.NETWORK_LINK_STORE)) {
                        String changelog = InternalTopics.changelog(id, store);
                        Waiting.until(() -> CommittedRecords.count(settings, changelog, WAIT) > 0, WAIT,
                                changelog + " never committed");
                    }
                    registry.stop();
                    long factorsBefore = app.stats().factorRecords.get();
                    cluster.events.subList(half, cluster.events.size()).forEach(writer::write);
                    writer.flush();
                    Waiting.until(() -> app.stats().pairs.get() == cluster.pairs.size(), WAIT,
                            "the second half not matched while the registry was down");
                    Waiting.until(() -> app.stats().factorRecords.get() > factorsBefore, WAIT,
                            "no factor emitted while the registry was down");
                    assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
                    assertEquals(0, app.stats().replacedThreads.get(), () -> app.stats().threadFailures());
                    registry.restart();
                }
            }
        }
    }

    @Test
    void anInstanceWithEmptyCachesWaitsForAnUnreachableRegistryAndLosesNothing() throws Exception {
        SimulatedTraces cluster = SimulatedTraces.run(4, 10_000_000_000L, 62);
        String id = "it-registry-down-" + UUID.randomUUID();
        Settings direct = settings(id, SharedKafkaEnvironment.registryUrl());
        try (TcpRelay relay = TcpRelay.to(SharedKafkaEnvironment.registryUrl())) {
            Settings settings = settings(id, relay.relayed(SharedKafkaEnvironment.registryUrl()))
                    .with("max.retries", "2").with("retries.wait.ms", "500")
                    .with("consumer.session.timeout.ms", "10000");
            try (TraceTopicWriter writer = new TraceTopicWriter(direct)) {
                writer.createTopics(cluster.nodes);
                cluster.events.forEach(writer::write);
                writer.flush();
            }
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                Thread.sleep(OUTAGE.toMillis());
                assertEquals(0, app.stats().events.get(), "events decoded without their schema");
                assertTrue(app.stats().replacedThreads.get() > 0, "no stream thread failed for the outage");
                relay.restore();
                Waiting.until(() -> app.stats().pairs.get() >= cluster.pairs.size(), WAIT,
                        "the input not matched after the registry came back");
                FactorAnswers.await(settings, OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                        settings.networkOptions()), WAIT);
                assertEquals(0, CommittedRecords.count(direct, settings.get("dlq.topic"), WAIT), "dead letters");
            }
        }
    }

    private Settings settings(String id, String registryUrl) {
        return Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("schema.registry.url", registryUrl)
                .with("state.dir", dir.resolve("state-" + id).toString())
                .with("factors.min.change", "0")
                .with("links.min.change", "0");
    }
}
