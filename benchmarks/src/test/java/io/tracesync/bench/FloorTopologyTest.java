package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TestStateDirs;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The floor has tracesync's shape — the same sub-topologies, repartition topics and sinks for every combination of
 * the two shortcuts — and really does its store reads and writes: one segment read and write per event, one
 * key-value write per pair and per summary, every pair and summary through its hop.
 */
class FloorTopologyTest {

    private static final Instant START = Instant.parse("2026-11-26T00:00:00Z");

    @ParameterizedTest(name = "partitioned by segment {0}, links with network {1}, {2} stores")
    @CsvSource({"false, false, ROCKSDB", "true, false, IN_MEMORY", "false, true, HEAP", "true, true, ROCKSDB",
        "true, true, HEAP"})
    void hasTracesyncsShapeAndDoesItsStoreWork(boolean bySegment, boolean withNetwork,
            FloorTopology.StoreKind stores) {
        Settings settings = Settings.of(Map.of(
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "traces.partitioned.by.segment", String.valueOf(bySegment),
                "links.with.network", String.valueOf(withNetwork),
                "topics.partitions", "1",
                "state.dir", TestStateDirs.fresh()));
        Topics topics = new Topics(settings);
        FloorCounts counts = new FloorCounts();
        Topology floor = FloorTopology.build(settings, topics, counts, stores);
        TopologyDescription tracesync = TracesyncTopology.build(settings, topics, new PipelineStats()).describe();
        assertEquals(tracesync.subtopologies().size(), floor.describe().subtopologies().size(), floor.describe()
                .toString());
        assertEquals(topics(tracesync, true), topics(floor.describe(), true), "the same repartition hops");
        assertEquals(topics(tracesync, false), topics(floor.describe(), false), "the same sinks");

        SimulationConfig cluster = SimulationConfig.builder().nodes(6).seed(5).build();
        try (TopologyTestDriver driver = new TopologyTestDriver(floor, settings.streamsProperties(), START)) {
            Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
            long[] fed = SimulatedStream.run(cluster, 5_000, e -> inputs.computeIfAbsent("traces." + e.getNode(),
                    t -> driver.createInputTopic(t, topics.segmentKey.serializer(), topics.traceEvent.serializer(),
                            START, Duration.ZERO)).pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()),
                    e));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            assertEquals(fed[0], counts.segmentReads.get(), "one segment read per event");
            assertEquals(fed[0], counts.segmentWrites.get(), "one segment write per event");
            assertTrue(counts.pairsMade.get() >= fed[1] * 0.95 && counts.pairsMade.get() <= fed[1] * 1.05,
                    "about one pair per true pair (retransmissions aside): " + counts + ", true pairs " + fed[1]);
            assertEquals(counts.pairsMade.get(), counts.pairWrites.get(), "one key-value write per pair");
            assertTrue(counts.summariesForwarded.get() >= 6, "summaries of the links: " + counts);
            assertEquals(counts.summariesForwarded.get(), counts.summaryWrites.get(), "one write per summary");
            assertTrue(counts.done(fed[0]), counts.toString());
        }
    }

    /** The repartition topics (or the sink topics) a topology writes to. */
    private static Set<String> topics(TopologyDescription d, boolean repartition) {
        Set<String> out = new TreeSet<>();
        d.subtopologies().forEach(s -> s.nodes().forEach(n -> {
            if (n instanceof TopologyDescription.Sink sink && sink.topic() != null
                    && sink.topic().endsWith("-repartition") == repartition) {
                out.add(sink.topic());
            }
        }));
        return out;
    }
}
