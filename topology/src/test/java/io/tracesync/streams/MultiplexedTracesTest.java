package io.tracesync.streams;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/** Every node's events in one topic (`traces.topic`) instead of a topic per node: the same answer. */
class MultiplexedTracesTest {

    @Test
    void oneTopicForAllNodesGivesTheOfflineAnswer() {
        Settings settings = Settings.of(Map.of(
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "traces.topic", "traces-all",
                "factors.min.change", "0",
                "links.min.change", "0",
                "state.dir", TestStateDirs.fresh()));
        Topics topics = new Topics(settings);
        Instant start = Instant.parse("2026-11-22T00:00:00Z");
        SimulatedTraces traces = SimulatedTraces.run(5, 10_000_000_000L, 21);
        try (TopologyTestDriver driver = new TopologyTestDriver(
                TracesyncTopology.build(settings, topics, new PipelineStats()), settings.streamsProperties(), start)) {
            TestInputTopic<SegmentKey, TraceEvent> in = driver.createInputTopic("traces-all",
                    topics.segmentKey.serializer(), topics.traceEvent.serializer(), start, Duration.ZERO);
            traces.events.forEach(e -> in.pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
            driver.advanceWallClockTime(Duration.ofSeconds(2));
            OfflineAnswer.assertStreamed(driver, topics, settings, traces.pairs);
        }
    }
}
