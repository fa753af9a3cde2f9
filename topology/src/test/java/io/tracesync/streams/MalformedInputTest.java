package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.sim.MalformedRecords;
import io.tracesync.sim.MalformedRecords.Kind;
import io.tracesync.sim.MalformedRecords.Raw;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.metrics.PipelineStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole malformed suite mixed into a clean cluster's traces, on the test driver: every malformed record is
 * rejected with its reason, and the factors are the clean run's.
 */
class MalformedInputTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    private final Settings settings = Settings.of(Map.of(
            "schema.registry.url", "mock://" + UUID.randomUUID(),
            "links.min.change", "0",
            "factors.min.change", "0",
            "state.dir", TestStateDirs.fresh()));
    private final Topics topics = new Topics(settings);
    private final PipelineStats stats = new PipelineStats();
    private final TopologyTestDriver driver = new TopologyTestDriver(
            TracesyncTopology.build(settings, topics, stats), settings.streamsProperties(), START);

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void everyMalformedRecordIsRejectedWithItsReasonAndTheFactorsAreTheCleanOnes() {
        SimulatedTraces cluster = SimulatedTraces.run(6, 20_000_000_000L, 7);
        List<Raw> records = MalformedRecords.interleave(cluster, settings.serdeConfig(),
                settings.get("traces.topic.prefix"), 10_000, 1);
        Map<String, TestInputTopic<byte[], byte[]>> inputs = new HashMap<>();
        for (Raw r : records) {
            inputs.computeIfAbsent(r.topic(), t -> driver.createInputTopic(t, new ByteArraySerializer(),
                    new ByteArraySerializer(), START, Duration.ZERO)).pipeInput(r.key(), r.value());
        }
        driver.advanceWallClockTime(Duration.ofSeconds(2));

        // The test driver drops undecodable records without a dead letter (the broker's path is checked in
        // integration-tests): their reason is the deserializer's exception, their count the dropped-records metric.
        List<Raw> undecodable = records.stream().filter(r -> r.kind() != null && r.kind().undecodable).toList();
        List<Raw> rejected = records.stream().filter(r -> r.kind() != null && !r.kind().undecodable).toList();
        Map<Kind, Integer> perKind = new EnumMap<>(Kind.class);
        Map<Kind, String> sample = new EnumMap<>(Kind.class);
        for (Raw r : undecodable) {
            SerializationException e = assertThrows(SerializationException.class,
                    () -> topics.traceEvent.deserializer().deserialize(r.topic(), r.value()));
            assertReason(r.kind(), e.getMessage());
            sample.putIfAbsent(r.kind(), e.getMessage());
            perKind.merge(r.kind(), 1, Integer::sum);
        }
        List<TestRecord<byte[], byte[]>> dead = driver.createOutputTopic(topics.deadLetters,
                new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList();
        assertEquals(rejected.size(), dead.size(), "one dead letter per rejected record");
        for (int i = 0; i < dead.size(); i++) {
            Raw r = rejected.get(i);
            String reason = header(dead.get(i), "__streams.errors.message");
            assertReason(r.kind(), reason);
            sample.putIfAbsent(r.kind(), reason);
            boolean matched = r.kind() == Kind.SELF_SEND || r.kind() == Kind.DUPLICATE;
            String origin = header(dead.get(i), "__streams.errors.topic");
            assertTrue(matched ? origin.endsWith("-segments-repartition") : origin.equals(r.topic()), origin);
            perKind.merge(r.kind(), 1, Integer::sum);
        }
        System.out.println("malformed records per kind: " + perKind);
        sample.forEach((kind, reason) -> System.out.println(kind + ": " + reason));
        assertEquals(Kind.values().length, perKind.size(), "every kind: " + perKind.keySet());
        assertTrue(undecodable.size() + rejected.size() >= 10_000);
        assertEquals(undecodable.size() + rejected.size(), droppedRecords(), "dropped-records-total");

        Map<String, SyncFactor> streamed = driver.createOutputTopic(topics.factors, new StringDeserializer(),
                topics.syncFactor.deserializer()).readKeyValuesToMap();
        Map<String, NodeFactor> clean = OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                settings.networkOptions());
        assertEquals(clean.keySet(), streamed.keySet(), "nodes with factors");
        clean.forEach((node, expected) -> {
            assertEquals(expected.reference(), streamed.get(node).getReference(), node + " reference");
            assertEquals(expected.factor(), PublishedFactor.of(streamed.get(node)).factor(), node + " factor");
        });
        assertEquals(cluster.pairs.size(), stats.pairs.get(), "every true pair matched, no false one");
    }

    private static void assertReason(Kind kind, String reason) {
        assertTrue(kind.reason.matcher(reason).find(), kind + ": " + reason);
    }

    private long droppedRecords() {
        return driver.metrics().entrySet().stream()
                .filter(m -> m.getKey().name().equals("dropped-records-total")
                        && m.getKey().group().equals("stream-task-metrics"))
                .mapToLong(m -> ((Number) m.getValue().metricValue()).longValue()).sum();
    }

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        assertNotNull(h, "header " + name);
        return new String(h.value(), StandardCharsets.UTF_8);
    }
}
