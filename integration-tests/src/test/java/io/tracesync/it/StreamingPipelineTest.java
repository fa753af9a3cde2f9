package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.sim.MalformedRecords;
import io.tracesync.sim.MalformedRecords.Kind;
import io.tracesync.sim.MalformedRecords.Raw;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application on a real KRaft broker and a real schema registry: a simulated cluster's events in per-node
 * topics give, in the committed {@code sync.factors}, exactly what {@code tracesync sync-pairs} computes from the
 * same messages; bad records (10,000 of every kind among them) land in the dead-letter topic with their reason
 * and leave the factors as they were; a restarted instance with its state
 * wiped restores it from the changelogs and carries on; an instance started before any trace topic exists
 * starts processing when the first ones are created.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class StreamingPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Settings DEFAULTS = Settings.of(Map.of());

    @TempDir
    Path dir;

    @Test
    void streamedFactorsEqualTheOfflineAnswerAndSurviveARestart() throws Exception {
        Settings settings = settings("restart");
        SimulatedTraces cluster = SimulatedTraces.run(6, 30_000_000_000L, 5);
        // hulls, pending segments and the network come back from the changelogs
        WipedRestart.run(settings, cluster, WAIT, app -> awaitFactors(settings,
                OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(), DEFAULTS.networkOptions())));
    }

    @Test
    void anInstanceStartedBeforeAnyTraceTopicWaitsReadyAndTakesTheFirstOnes() throws Exception {
        Settings settings = settings("no-traces-yet");
        SimulatedTraces cluster = SimulatedTraces.run(4, 20_000_000_000L, 3);
        try (TracesyncApp app = TracesyncApp.start(settings);
             TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            assertEquals(KafkaStreams.State.CREATED, app.streams().state());
            assertTrue(app.stats().waitingFor.get().startsWith("a trace topic matching "),
                    app.stats().waitingFor.get());
            writer.createTopics(cluster.nodes);
            cluster.events.forEach(writer::write);
            writer.flush();
            awaitFactors(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(),
                    DEFAULTS.networkOptions()));
            assertEquals(null, app.stats().waitingFor.get());
            assertEquals(cluster.pairs.size(), app.stats().pairs.get());
        }
    }

    @Test
    void withBothShortcutsTheFactorsAreTheOfflineAnswer() throws Exception {
        Settings settings = settings("by-segment").with("traces.partitioned.by.segment", "true")
                .with("links.with.network", "true");
        SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 9);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.forEach(writer::write);
                writer.flush();
                awaitFactors(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(),
                        DEFAULTS.networkOptions()));
                assertEquals(cluster.pairs.size(), app.stats().pairs.get());
            }
            try (Admin admin = Admin.create(settings.streamsProperties())) {
                Set<String> created = admin.listTopics().names().get();
                for (String hop : List.of(InternalTopics.SEGMENTS, InternalTopics.NETWORK)) {
                    String repartition = InternalTopics.repartition(settings.get("application.id"), hop);
                    assertFalse(created.contains(repartition), repartition + " was created");
                }
                // a trace topic with another partition count would split segments: refused at start
                admin.createTopics(List.of(new NewTopic(writer.topicOf("odd"), 2, (short) 1))).all().get();
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> TracesyncApp.start(settings).close());
            assertTrue(refused.getMessage().contains(writer.topicOf("odd") + " (2)"), refused.getMessage());
        }
    }

    @Test
    void badRecordsEndInTheDeadLetterTopicWithTheirReason() throws Exception {
        Settings settings = settings("dlq");
        SimulatedTraces cluster = SimulatedTraces.run(3, 5_000_000_000L, 8);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings);
             OrderedProducer<byte[], byte[]> raw = new OrderedProducer<>(settings.streamsProperties(),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                String topic = writer.topicOf(cluster.nodes.get(0));
                raw.send(new ProducerRecord<>(topic, new byte[] {0, 0, 0, 0, 1}, "garbage".getBytes(StandardCharsets.UTF_8)));
                raw.send(new ProducerRecord<>(topic, new byte[] {7}, new byte[] {9, 9}));
                raw.flush();
                TraceEvent e = cluster.events.get(0);
                writer.write(TraceEvent.newBuilder(e).setTsNs(-1).build());
                cluster.events.forEach(writer::write);
                writer.flush();
                awaitFactors(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(), DEFAULTS.networkOptions()));
                List<ConsumerRecord<byte[], byte[]>> dead = readAll(settings, settings.get("dlq.topic"), 3);
                List<String> reasons = dead.stream()
                        .map(r -> new String(r.headers().lastHeader("__streams.errors.message").value(),
                                StandardCharsets.UTF_8)).toList();
                assertEquals(3, dead.size(), reasons.toString());
                assertTrue(reasons.stream().anyMatch(m -> m.contains("unknown schema id 1")
                        || m.contains("schema")), reasons.toString());
                assertTrue(reasons.stream().anyMatch(m -> m.contains("shorter than the 5-byte header")
                        || m.contains("magic")), reasons.toString());
                assertTrue(reasons.stream().anyMatch(m -> m.contains("negative timestamp -1")), reasons.toString());
            }
        }
    }

    /**
     * A record of the application's own that the broker refuses (here every forest snapshot, sync.tree taking at
     * most 64 bytes) is a dead letter with its reason, written from the network's punctuation, and the factors flow
     * on: no thread fails, none is replaced, no task restarts (the dead letter, written from the refused send's
     * callback, finds the dead-letter topic's metadata: DeadLetterMetadataTest). Under at_least_once only: under
     * exactly_once_v2 a record the broker refuses leaves the transaction unable to commit (docs/STREAMS.md, Errors).
     */
    @Test
    void anOutputTheBrokerRefusesIsADeadLetterAndTheFactorsFlowOn() throws Exception {
        Settings settings = settings("refused").with("processing.guarantee", "at_least_once");
        SimulatedTraces cluster = SimulatedTraces.run(4, 10_000_000_000L, 3);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings);
             Admin admin = Admin.create(settings.streamsProperties())) {
            admin.createTopics(List.of(new NewTopic(settings.get("tree.topic"), 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", "64")))).all().get();
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.forEach(writer::write);
                writer.flush();
                awaitFactors(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(),
                        DEFAULTS.networkOptions()));
                List<ConsumerRecord<byte[], byte[]>> dead = readAll(settings, settings.get("dlq.topic"), 1);
                assertFalse(dead.isEmpty());
                String exception = new String(dead.get(0).headers().lastHeader("__streams.errors.exception").value(),
                        StandardCharsets.UTF_8);
                assertEquals("org.apache.kafka.common.errors.RecordTooLargeException", exception);
                assertEquals(0, app.stats().replacedThreads.get(), app.stats().threadFailures());
                assertEquals(0, app.stats().retriedWrites.get(), "writes retried (a task restarted)");
                assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
            }
        }
    }

    @Test
    void tenThousandMalformedRecordsEndInTheDeadLetterTopicAndTheFactorsStayClean() throws Exception {
        Settings settings = settings("malformed").with("matcher.rotation", "10m");
        SimulatedTraces cluster = SimulatedTraces.run(6, 20_000_000_000L, 7);
        List<Raw> records = MalformedRecords.interleave(cluster, settings.serdeConfig(),
                settings.get("traces.topic.prefix"), 10_000, 1);
        Map<Kind, Long> expected = records.stream().filter(r -> r.kind() != null)
                .collect(Collectors.groupingBy(Raw::kind, () -> new EnumMap<>(Kind.class), Collectors.counting()));
        int malformed = (int) expected.values().stream().mapToLong(Long::longValue).sum();
        try (TraceTopicWriter writer = new TraceTopicWriter(settings);
             OrderedProducer<byte[], byte[]> raw = new OrderedProducer<>(settings.streamsProperties(),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                long start = System.nanoTime();
                records.forEach(r -> raw.send(new ProducerRecord<>(r.topic(), r.key(), r.value())));
                raw.flush();
                List<ConsumerRecord<byte[], byte[]>> dead = readAll(settings, settings.get("dlq.topic"), malformed);
                Map<Kind, Long> got = new EnumMap<>(Kind.class);
                for (ConsumerRecord<byte[], byte[]> d : dead) {
                    String reason = new String(d.headers().lastHeader("__streams.errors.message").value(),
                            StandardCharsets.UTF_8);
                    if (got.merge(kindOf(reason), 1L, Long::sum) == 1) {
                        System.out.println(kindOf(reason) + ": " + reason);
                    }
                }
                assertEquals(expected, got, () -> String.format("dead letters per kind after %.1f s; %s",
                        (System.nanoTime() - start) / 1e9, app.stats().threadFailures()));
                awaitFactors(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(),
                        DEFAULTS.networkOptions()));
                assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
                System.out.printf("%d malformed records among %d: every one a dead letter with its reason, factors"
                        + " clean, after %.1f s%n", malformed, records.size(), (System.nanoTime() - start) / 1e9);
            }
        }
    }

    private static Kind kindOf(String reason) {
        Kind kind = Kind.of(reason);
        assertNotNull(kind, "no one kind of malformed record gives this reason: " + reason);
        return kind;
    }

    /** Settings whose application id and topics are this invocation's alone (a test may run more than once). */
    private Settings settings(String name) {
        return Settings.of(SharedKafkaEnvironment.isolated("it-" + name + "-" + UUID.randomUUID()))
                .with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200")
                .with("factors.min.change", "0")
                .with("links.min.change", "0");
    }

    private static void awaitFactors(Settings settings, Map<String, NodeFactor> expected) throws Exception {
        FactorAnswers.await(settings, expected, WAIT);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(Settings settings, String topic, int atLeast) {
        Map<String, Object> config = new HashMap<>();
        settings.streamsProperties().forEach((k, v) -> config.put((String) k, v));
        return AwaitedRecords.read(config, topic, atLeast, WAIT, Duration.ofSeconds(2));
    }
}
