package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TestStateDirs;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stages are tracesync's sub-topologies, one for one, with the same processors; chained through their
 * outputs they do the whole pipeline's work: the same factors, record for record, as the pipeline on the same
 * events.
 */
class StageTopologyTest {

    private static final Instant START = Instant.parse("2026-11-26T00:00:00Z");

    @ParameterizedTest(name = "partitioned by segment {0}, links with network {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void stagesChainedAreThePipeline(boolean bySegment, boolean withNetwork) {
        Settings settings = Settings.of(Map.of(
                "application.id", "app",
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "traces.partitioned.by.segment", String.valueOf(bySegment),
                "links.with.network", String.valueOf(withNetwork),
                "factors.emit.interval", "0",
                "topics.partitions", "1",
                "state.dir", TestStateDirs.fresh()));
        Topics topics = new Topics(settings);
        TopologyDescription pipeline = TracesyncTopology.build(settings, topics, new PipelineStats()).describe();
        List<StageTopology.Stage> stages = StageTopology.stages(settings);
        assertEquals(pipeline.subtopologies().size(), stages.size(), pipeline.toString());

        SimulationConfig cluster = SimulationConfig.builder().nodes(5).seed(3).build();
        List<TraceEvent> events = new ArrayList<>();
        SimulatedStream.run(cluster, 4_000, events::add);
        List<SyncFactor> expected = factors(settings, topics, events);
        assertFalse(expected.isEmpty());

        List<KeyValue<Object, Object>> carried = null;
        List<SyncFactor> chained = null;
        for (StageTopology.Stage stage : stages) {
            String hop = stage.topic("app");
            AtomicLong consumed = new AtomicLong();
            var topology = StageTopology.build(stage, hop, "stage-output", settings, topics, new PipelineStats(),
                    consumed);
            assertEquals(processors(pipeline, stage), processors(topology.describe(), stage), stage.name());
            try (TopologyTestDriver driver = new TopologyTestDriver(topology, settings.streamsProperties(), START)) {
                int fed = hop == null ? pipeTraces(driver, topics, events) : pipe(driver, hop, stage, topics, carried);
                assertEquals(fed, consumed.get(), stage.name() + " counts what it reads");
                if (stage.steps().contains(StageTopology.Step.NETWORK)) {
                    chained = driver.createOutputTopic(topics.factors, Serdes.String().deserializer(),
                            topics.syncFactor.deserializer()).readValuesToList();
                } else {
                    carried = output(driver, stage, topics);
                }
            }
        }
        assertEquals(expected, chained, "the stages chained give the pipeline's factors");
    }

    /** The factors of the whole pipeline on {@code events}, in the order written. */
    private static List<SyncFactor> factors(Settings settings, Topics topics, List<TraceEvent> events) {
        try (TopologyTestDriver driver = new TopologyTestDriver(TracesyncTopology.build(settings, topics,
                new PipelineStats()), settings.streamsProperties(), START)) {
            pipeTraces(driver, topics, events);
            return driver.createOutputTopic(topics.factors, Serdes.String().deserializer(),
                    topics.syncFactor.deserializer()).readValuesToList();
        }
    }

    private static int pipeTraces(TopologyTestDriver driver, Topics topics, List<TraceEvent> events) {
        Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
        for (TraceEvent e : events) {
            inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(t,
                    topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO))
                    .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e);
        }
        return events.size();
    }

    /** What the previous stage wrote, into this stage's hop. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int pipe(TopologyTestDriver driver, String hop, StageTopology.Stage stage, Topics topics,
            List<KeyValue<Object, Object>> records) {
        TestInputTopic input = switch (stage.steps().get(0)) {
            case MATCH -> driver.createInputTopic(hop, Serdes.String().serializer(),
                    topics.traceEvent.serializer(), START, Duration.ZERO);
            case LINKS -> driver.createInputTopic(hop, topics.linkId.serializer(),
                    topics.matchedPairs.serializer(), START, Duration.ZERO);
            case NETWORK -> driver.createInputTopic(hop, topics.linkId.serializer(),
                    topics.linkSummary.serializer(), START, Duration.ZERO);
            case CHECK -> throw new AssertionError("the check reads the input");
        };
        records.forEach(r -> input.pipeInput(new TestRecord(r.key, r.value)));
        return records.size();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<KeyValue<Object, Object>> output(TopologyTestDriver driver, StageTopology.Stage stage,
            Topics topics) {
        var out = switch (stage.steps().get(stage.steps().size() - 1)) {
            case CHECK -> driver.createOutputTopic("stage-output", Serdes.String().deserializer(),
                    topics.traceEvent.deserializer());
            case MATCH -> driver.createOutputTopic("stage-output", topics.linkId.deserializer(),
                    topics.matchedPairs.deserializer());
            case LINKS -> driver.createOutputTopic("stage-output", topics.linkId.deserializer(),
                    topics.linkSummary.deserializer());
            case NETWORK -> throw new AssertionError("the network writes factors");
        };
        return (List) out.readKeyValuesToList();
    }

    /** The processors of the pipeline's sub-topology that runs {@code stage}'s steps, or of a stage alone. */
    private static Set<String> processors(TopologyDescription d, StageTopology.Stage stage) {
        String first = stage.steps().get(0).name().toLowerCase();
        for (TopologyDescription.Subtopology s : d.subtopologies()) {
            Set<String> names = new TreeSet<>();
            s.nodes().stream().filter(n -> n instanceof TopologyDescription.Processor)
                    .map(TopologyDescription.Node::name)
                    .filter(n -> !n.equals("counted") && !n.contains("repartition")).forEach(names::add);
            if (names.contains(first)) {
                return names;
            }
        }
        throw new AssertionError("no sub-topology runs " + first + ": " + d);
    }
}
