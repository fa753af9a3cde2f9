package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.matcher.SegmentPartitioning;
import io.tracesync.streams.metrics.PipelineStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code traces.partitioned.by.segment} (its answer: TopologyShapesTest): an event in another partition than its
 * segment's is refused with its reason. The test driver reads every input from partition 0.
 */
class SegmentPartitionedTracesTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    private static Settings settings(int partitions) {
        return Settings.of(Map.of(
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "traces.partitioned.by.segment", "true",
                "topics.partitions", String.valueOf(partitions),
                "factors.min.change", "0",
                "links.min.change", "0",
                "state.dir", TestStateDirs.fresh()));
    }

    @Test
    void anEventOutsideItsSegmentsPartitionIsADeadLetter() {
        Settings settings = settings(4);
        Topics topics = new Topics(settings);
        SimulatedTraces traces = SimulatedTraces.run(3, 2_000_000_000L, 24);
        List<TraceEvent> elsewhere = traces.events.stream().filter(e -> partition(e) != 0).toList();
        assertFalse(elsewhere.isEmpty());
        try (TopologyTestDriver driver = new TopologyTestDriver(TracesyncTopology.build(settings, topics,
                new PipelineStats()), settings.streamsProperties(), START)) {
            Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
            traces.events.forEach(e -> input(driver, topics, inputs, e).pipeInput(key(e), e));
            List<TestRecord<byte[], byte[]>> dead = driver.createOutputTopic(topics.deadLetters,
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList();
            assertEquals(elsewhere.size(), dead.size());
            TraceEvent first = elsewhere.get(0);
            String reason = new String(dead.get(0).headers().lastHeader("__streams.errors.message").value(),
                    StandardCharsets.UTF_8);
            assertEquals("segment " + SegmentPartitioning.key(first.getSeq(), first.getAckSeq(), first.getFlags())
                    + " in partition 0 of traces." + first.getNode() + ", not " + partition(first)
                    + " of 4 as traces.partitioned.by.segment requires", reason);
        }
    }

    private static int partition(TraceEvent e) {
        return SegmentPartitioning.partition(SegmentPartitioning.key(e.getSeq(), e.getAckSeq(), e.getFlags()), 4);
    }

    private static SegmentKey key(TraceEvent e) {
        return new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags());
    }

    private static TestInputTopic<SegmentKey, TraceEvent> input(TopologyTestDriver driver, Topics topics,
            Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs, TraceEvent e) {
        return inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(t,
                topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO));
    }
}
