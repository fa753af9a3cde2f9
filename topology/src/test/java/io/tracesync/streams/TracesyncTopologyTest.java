package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.network.FactorHistoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The whole topology on the test driver: a simulated cluster in, exactly the offline answer out. */
class TracesyncTopologyTest {

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
    private final Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void factorsEqualTheOfflineAnswerOnTheSamePairs() {
        SimulatedTraces traces = SimulatedTraces.run(6, 20_000_000_000L, 7);
        traces.events.forEach(this::send);
        driver.advanceWallClockTime(Duration.ofSeconds(2));

        Map<String, SyncFactor> streamed = latestFactors();
        Map<String, NodeFactor> offline = offline(traces.pairs);
        assertEquals(offline.keySet(), streamed.keySet(), "nodes with factors");
        offline.forEach((node, expected) -> {
            SyncFactor got = streamed.get(node);
            assertEquals(expected.reference(), got.getReference(), node + " reference");
            assertEquals(expected.factor(), PublishedFactor.of(got).factor(), node + " factor");
        });
        assertEquals(traces.events.size(), stats.events.get());
        assertEquals(traces.pairs.size(), stats.pairs.get(), "every true pair matched, no false one");

        TestOutputTopic<String, TreeSnapshot> tree = driver.createOutputTopic(topics.tree,
                new StringDeserializer(), topics.treeSnapshot.deserializer());
        List<TreeSnapshot> snapshots = tree.readValuesToList();
        assertFalse(snapshots.isEmpty());
        assertEquals(5, snapshots.get(snapshots.size() - 1).getEdges().size(), "a spanning tree of 6 nodes");
    }

    @Test
    void emitsAtMostOneRecordPerNodePerInterval() {
        SimulatedTraces traces = SimulatedTraces.run(4, 10_000_000_000L, 3);
        traces.events.forEach(this::send);
        TestOutputTopic<String, SyncFactor> factors = factorTopic();
        assertTrue(factors.isEmpty(), "nothing before the first interval ends");
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        List<String> keys = factors.readKeyValuesToList().stream().map(kv -> kv.key).toList();
        assertEquals(keys.stream().distinct().count(), keys.size(), "one record per node");
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertTrue(factors.isEmpty(), "nothing changed, nothing emitted");
    }

    /**
     * A replay of archived traces in the deterministic mode writes the history the first run wrote, record for
     * record and byte for byte (keys, values, timestamps), from a state of its own.
     */
    @Test
    void aDeterministicReplayWritesTheSameHistory() {
        SimulatedTraces traces = SimulatedTraces.run(4, 8_000_000_000L, 5);
        List<List<TestRecord<String, byte[]>>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Settings deterministic = settings.with("factors.emit.interval", "0").with("traces.topic", "traces")
                    .with("state.dir", TestStateDirs.fresh());
            try (TopologyTestDriver d = new TopologyTestDriver(TracesyncTopology.build(deterministic,
                    new Topics(deterministic), new PipelineStats()), deterministic.streamsProperties(), START)) {
                TestInputTopic<SegmentKey, TraceEvent> in = d.createInputTopic("traces",
                        topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ofMillis(1));
                traces.events.forEach(e -> in.pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
                runs.add(d.createOutputTopic(topics.factorHistory, new StringDeserializer(),
                        new ByteArrayDeserializer()).readRecordsToList());
            }
        }
        assertTrue(runs.get(0).size() > 4, runs.get(0).size() + " history records");
        assertEquals(runs.get(0).size(), runs.get(1).size());
        for (int i = 0; i < runs.get(0).size(); i++) {
            TestRecord<String, byte[]> a = runs.get(0).get(i);
            TestRecord<String, byte[]> b = runs.get(1).get(i);
            assertEquals(a.key(), b.key());
            assertEquals(a.getRecordTime(), b.getRecordTime());
            assertTrue(Arrays.equals(a.value(), b.value()), "record " + i + " of " + a.key());
        }
    }

    @Test
    void withAZeroEmitIntervalFactorsFollowTheInputWithoutAnyWallClock() {
        Settings deterministic = settings.with("factors.emit.interval", "0").with("traces.topic", "traces")
                .with("state.dir", TestStateDirs.fresh());
        SimulatedTraces traces = SimulatedTraces.run(5, 10_000_000_000L, 9);
        try (TopologyTestDriver d = new TopologyTestDriver(TracesyncTopology.build(deterministic,
                new Topics(deterministic), new PipelineStats()), deterministic.streamsProperties(), START)) {
            TestInputTopic<SegmentKey, TraceEvent> in = d.createInputTopic("traces", topics.segmentKey.serializer(),
                    topics.traceEvent.serializer(), START, Duration.ofMillis(1));
            traces.events.forEach(e -> in.pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
            List<TestRecord<String, SyncFactor>> records = d.createOutputTopic(topics.factors,
                    new StringDeserializer(), topics.syncFactor.deserializer()).readRecordsToList();
            Map<String, Long> versions = new HashMap<>();
            Map<String, SyncFactor> latest = new HashMap<>();
            long end = START.toEpochMilli() + traces.events.size();
            for (TestRecord<String, SyncFactor> r : records) {
                long at = r.getRecordTime().toEpochMilli();
                assertEquals(at, r.getValue().getValidFromMs(), "stamped with the input's record time");
                assertTrue(at >= START.toEpochMilli() && at < end, "an input's time: " + at);
                assertEquals(versions.merge(r.getKey(), 1L, Long::sum), r.getValue().getVersion(), r.getKey());
                latest.put(r.getKey(), r.getValue());
            }
            Map<String, NodeFactor> offline = offline(traces.pairs);
            assertEquals(offline.keySet(), latest.keySet());
            offline.forEach((node, expected) ->
                    assertEquals(expected.factor(), PublishedFactor.of(latest.get(node)).factor(), node));
            assertHistory(d, records, latest, traces);
        }
    }

    /**
     * The history topic holds exactly the factor records the history's gate keeps (the spacing and the tolerance of
     * the settings; the version before a departure with it), in their order, and the history store every node's kept
     * versions in anchor and version order, its newest the last kept.
     */
    private void assertHistory(TopologyTestDriver d, List<TestRecord<String, SyncFactor>> records,
            Map<String, SyncFactor> latest, SimulatedTraces traces) {
        HistoryGate gate = new HistoryGate(settings.duration("factors.history.spacing").toNanos(),
                settings.duration("factors.history.tolerance").toNanos());
        Map<String, FactorVersion> kept = new HashMap<>();
        Map<String, SyncFactor> lastKept = new HashMap<>();
        Map<String, TestRecord<String, SyncFactor>> published = new HashMap<>();
        List<TestRecord<String, SyncFactor>> expected = new ArrayList<>();
        int before = 0;
        for (TestRecord<String, SyncFactor> r : records) {
            FactorVersion v = FactorHistoryStore.version(r.getValue());
            TestRecord<String, SyncFactor> previous = published.put(r.getKey(), r);
            for (FactorVersion k : gate.kept(kept.get(r.getKey()),
                    previous == null ? null : FactorHistoryStore.version(previous.getValue()), v)) {
                TestRecord<String, SyncFactor> record = k == v ? r : previous;
                before += k == v ? 0 : 1;
                kept.put(r.getKey(), k);
                lastKept.put(r.getKey(), record.getValue());
                expected.add(record);
            }
        }
        assertTrue(before > 0, "versions kept as the one before a departure: " + before);
        assertTrue(expected.size() < records.size(), "the gate keeps " + expected.size() + " of " + records.size());
        List<TestRecord<String, SyncFactor>> history = d.createOutputTopic(topics.factorHistory,
                new StringDeserializer(), topics.syncFactor.deserializer()).readRecordsToList();
        assertEquals(expected, history);
        KeyValueStore<Bytes, SyncFactor> store = d.getKeyValueStore(TracesyncTopology.NETWORK_FACTOR_HISTORY_STORE);
        latest.forEach((node, newest) -> {
            List<SyncFactor> versions = new ArrayList<>();
            try (KeyValueIterator<Bytes, SyncFactor> it = store.range(FactorHistoryStore.first(node),
                    FactorHistoryStore.last(node))) {
                it.forEachRemaining(kv -> versions.add(kv.value));
            }
            assertTrue(versions.size() > 1, node + ": " + versions.size() + " versions");
            for (int i = 1; i < versions.size(); i++) {
                assertTrue(versions.get(i).getAnchorNs() > versions.get(i - 1).getAnchorNs()
                        && versions.get(i).getVersion() > versions.get(i - 1).getVersion(), node);
            }
            assertEquals(lastKept.get(node), versions.get(versions.size() - 1), node);
        });
        // halfway between two kept versions of one reference, the history and the latest factor, as a consumer
        // holds them, answer with both, and the truth lies inside
        int interpolated = 0;
        for (String node : latest.keySet()) {
            NodeHistory held = new NodeHistory(1_000_000);
            history.stream().filter(r -> r.getKey().equals(node)).forEach(r -> held.add(FactorHistoryStore.version(
                    r.getValue())));
            held.add(FactorHistoryStore.version(latest.get(node)));
            FactorVersion[] v = held.versions();
            for (int k = 1; k < v.length; k++) {
                for (int tenth = 1; tenth < 10 && v[k - 1].reference().equals(v[k].reference())
                        && !v[k].reference().equals(node); tenth++) {
                    long t = v[k - 1].anchorNs() + (v[k].anchorNs() - v[k - 1].anchorNs()) / 10 * tenth;
                    HistoricConversion c = held.convert(t);
                    assertEquals(HistoricConversion.Basis.INTERPOLATED, c.basis(), c.toString());
                    long truth = traces.clock(v[k].reference()).localAt(traces.clock(node).trueAt(t));
                    assertTrue(c.lowerNs() - 1 <= truth && truth <= c.upperNs() + 1, c + " misses " + truth);
                    interpolated++;
                }
            }
        }
        assertTrue(interpolated >= 18, interpolated + " times between two versions");
    }

    /**
     * Clocks under a temperature cycle, in order as a live run sees them (the deterministic mode): a time five
     * minutes or more older than its node's newest factor converts, with the history a consumer holds (the history
     * topic, one version every 10 s, and the newest factor), within its bounds of the truth and as tightly and
     * accurately as the factor in force at that time answered live; the newest factor alone, carried back, would
     * not.
     */
    @Test
    void aTimeFiveMinutesOldConvertsAsWellAsLiveUnderATemperatureCycle() {
        Settings deterministic = settings.with("factors.emit.interval", "0").with("traces.topic", "traces")
                .with("state.dir", TestStateDirs.fresh());
        SimulatedTraces traces = SimulatedTraces.run(SimulationConfig.builder().nodes(4)
                .durationNs(Duration.ofMinutes(12).toNanos()).seed(7).wander(true).wanderAmplitudePpm(0.5)
                .wanderPeriodNs(Duration.ofMinutes(10).toNanos()).build());
        List<Double> widths = new ArrayList<>();
        List<Double> newestWidths = new ArrayList<>();
        List<Long> lateErrors = new ArrayList<>();
        List<Long> liveErrors = new ArrayList<>();
        try (TopologyTestDriver d = new TopologyTestDriver(TracesyncTopology.build(deterministic,
                new Topics(deterministic), new PipelineStats()), deterministic.streamsProperties(), START)) {
            TestInputTopic<SegmentKey, TraceEvent> in = d.createInputTopic("traces", topics.segmentKey.serializer(),
                    topics.traceEvent.serializer(), START, Duration.ofMillis(1));
            traces.events.forEach(e -> in.pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
            Map<String, NodeHistory> live = new HashMap<>();
            d.createOutputTopic(topics.factors, new StringDeserializer(), topics.syncFactor.deserializer())
                    .readRecordsToList().forEach(r -> live.computeIfAbsent(r.getKey(), k -> new NodeHistory(
                            Integer.MAX_VALUE)).add(FactorHistoryStore.version(r.getValue())));
            Map<String, NodeHistory> held = new HashMap<>();
            d.createOutputTopic(topics.factorHistory, new StringDeserializer(), topics.syncFactor.deserializer())
                    .readRecordsToList().forEach(r -> held.computeIfAbsent(r.getKey(), k -> new NodeHistory(
                            Integer.MAX_VALUE)).add(FactorHistoryStore.version(r.getValue())));
            long late = Duration.ofMinutes(5).toNanos();
            for (String node : traces.nodes) {
                FactorVersion newest = live.get(node).newest();
                if (newest.own()) {
                    continue;
                }
                for (long t = newest.anchorNs() - late; t > newest.anchorNs() - 2 * late; t -= 1_000_000_000L) {
                    FactorVersion inForce = live.get(node).inForce(t);
                    HistoricConversion c = held.get(node).convert(t, newest);
                    if (inForce == null || !inForce.reference().equals(c.version().reference())) {
                        continue;
                    }
                    Conversion then = Conversion.of(inForce.factor(), t);
                    Conversion carried = Conversion.of(newest.factor(), t);
                    long truth = traces.clock(c.version().reference()).localAt(traces.clock(node).trueAt(t));
                    assertTrue(c.lowerNs() - 1 <= truth && truth <= c.upperNs() + 1, c + " misses " + truth);
                    double liveWidth = then.upperNs() - then.lowerNs();
                    widths.add((c.upperNs() - c.lowerNs()) / liveWidth);
                    newestWidths.add((carried.upperNs() - carried.lowerNs()) / liveWidth);
                    lateErrors.add(Math.abs(c.nearestNs() - truth));
                    liveErrors.add(Math.abs(then.nearestNs() - truth));
                }
            }
        }
        double width = median(widths);
        double newestWidth = median(newestWidths);
        double lateError = median(lateErrors);
        double liveError = median(liveErrors);
        System.out.printf("5 to 10 min late under a cycle: %d times, width / live's median %.3f, error median %.0f ns"
                + " (live %.0f ns); the newest factor alone: width %.1f x live's%n", widths.size(), width, lateError,
                liveError, newestWidth);
        assertTrue(widths.size() > 600, widths.size() + " times");
        assertTrue(width <= 1.05, "width " + width + " x live's");
        assertTrue(lateError <= 1.05 * liveError + 50, "error " + lateError + " vs live " + liveError);
        assertTrue(newestWidth > 5, "the newest factor alone: " + newestWidth + " x live's width");
    }

    private static double median(List<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).sorted().skip(values.size() / 2).findFirst()
                .orElseThrow();
    }

    @Test
    void badRecordsGoToTheDeadLetterTopicWithTheirReason() {
        SimulatedTraces traces = SimulatedTraces.run(3, 5_000_000_000L, 11);
        TestInputTopic<byte[], byte[]> raw = driver.createInputTopic("traces.n0", new ByteArraySerializer(),
                new ByteArraySerializer(), START, Duration.ZERO);
        raw.pipeInput(new byte[] {1, 2, 3}, "not avro".getBytes(StandardCharsets.UTF_8));
        TraceEvent good = traces.events.get(0);
        TraceEvent negative = TraceEvent.newBuilder(good).setTsNs(-5).build();
        TraceEvent elsewhere = TraceEvent.newBuilder(good).setNode("intruder").build();
        send("traces." + good.getNode(), negative);
        send("traces." + good.getNode(), elsewhere);
        traces.events.forEach(this::send);
        driver.advanceWallClockTime(Duration.ofSeconds(2));

        TestOutputTopic<byte[], byte[]> dlq = driver.createOutputTopic(topics.deadLetters,
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
        // The test driver skips undecodable records without a dead letter; the real broker's is checked in
        // integration-tests (StreamingPipelineTest).
        List<String> reasons = dead.stream().map(r -> header(r, "__streams.errors.message")).toList();
        assertEquals(2, dead.size(), reasons.toString());
        assertTrue(reasons.get(0).contains("negative timestamp -5"), reasons.get(0));
        assertTrue(reasons.get(1).contains("event of node intruder in topic traces." + good.getNode()),
                reasons.get(1));
        assertEquals(elsewhere, topics.traceEvent.deserializer().deserialize("traces.n0", dead.get(1).value()),
                "the record as it came");
        assertEquals(Map.copyOf(offline(traces.pairs)).keySet(), latestFactors().keySet(),
                "the good records still give every factor");
    }

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        assertNotNull(h, "header " + name);
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    private void send(TraceEvent e) {
        send("traces." + e.getNode(), e);
    }

    private void send(String topic, TraceEvent e) {
        inputs.computeIfAbsent(topic, t -> driver.createInputTopic(t, topics.segmentKey.serializer(),
                topics.traceEvent.serializer(), START, Duration.ZERO))
                .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e);
    }

    private TestOutputTopic<String, SyncFactor> factorTopic() {
        return driver.createOutputTopic(topics.factors, new StringDeserializer(), topics.syncFactor.deserializer());
    }

    private Map<String, SyncFactor> latestFactors() {
        return factorTopic().readKeyValuesToMap();
    }

    /** What {@code tracesync sync-pairs} computes from the same pairs. */
    private Map<String, NodeFactor> offline(List<SendReceive> pairs) {
        return OfflineSync.factors(pairs, settings.linkOptions(), settings.networkOptions());
    }
}
