package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.schema.MockSchemaRegistry;
import io.tracesync.sim.SimulatedTraces;
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
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two shortcuts ({@code traces.partitioned.by.segment}: no segments repartition; {@code links.with.network}: no
 * network repartition) leave out exactly their hop and give the offline answer. The test driver reads every input
 * from partition 0, so the inputs have one partition here.
 */
class TopologyShapesTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    @ParameterizedTest(name = "partitioned by segment {0}, links with network {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void eachShortcutLeavesOutItsHopAndTheAnswerStays(boolean bySegment, boolean withNetwork) {
        Map<String, String> shape = Map.of(
                "traces.partitioned.by.segment", String.valueOf(bySegment),
                "links.with.network", String.valueOf(withNetwork),
                "topics.partitions", "1",
                "factors.min.change", "0",
                "links.min.change", "0",
                "state.dir", TestStateDirs.fresh());
        String registry = UUID.randomUUID().toString();
        Settings settings = withRegistry(shape, registry);
        Topics topics = new Topics(settings);
        Topology topology = TracesyncTopology.build(settings, topics, new PipelineStats());
        String described = topology.describe().toString();
        assertEquals(!bySegment, described.contains("segments-repartition"), described);
        assertEquals(!withNetwork, described.contains("network-repartition"), described);
        assertEquals(2 + (bySegment ? 0 : 1) + (withNetwork ? 0 : 1), topology.describe().subtopologies().size(),
                described);

        SimulatedTraces traces = SimulatedTraces.run(5, 10_000_000_000L, 23);
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, settings.streamsProperties(), START)) {
            Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
            traces.events.forEach(e -> inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(
                    t, topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO))
                    .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
            driver.advanceWallClockTime(Duration.ofSeconds(2));
            OfflineAnswer.assertStreamed(driver, topics, settings, traces.pairs);
        }
        Set<String> written = new TreeSet<>(MockSchemaRegistry.scope(registry).subjects().keySet());
        written.removeIf(subject -> subject.startsWith("traces."));
        assertEquals(written, subjectsLearnedAtStart(shape), "the application's own subjects, learned at start");
    }

    /** The subjects {@link TracesyncTopology#avroWrites} registers, in a registry of their own. */
    private static Set<String> subjectsLearnedAtStart(Map<String, String> shape) {
        String registry = UUID.randomUUID().toString();
        Settings settings = withRegistry(shape, registry);
        TracesyncTopology.avroWrites(settings, new Topics(settings)).forEach((topic, serdes) -> serdes
                .forEach(serde -> serde.schemaId(topic)));
        return MockSchemaRegistry.scope(registry).subjects().keySet();
    }

    private static Settings withRegistry(Map<String, String> shape, String mockScope) {
        Map<String, String> config = new HashMap<>(shape);
        config.put("schema.registry.url", "mock://" + mockScope);
        return Settings.of(config);
    }
}
