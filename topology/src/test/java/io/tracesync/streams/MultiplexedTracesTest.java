package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.streams.network.FactorRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
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
                "state.dir", System.getProperty("java.io.tmpdir") + "/tracesync-ttd-" + UUID.randomUUID()));
        Topics topics = new Topics(settings);
        Instant start = Instant.parse("2026-11-22T00:00:00Z");
        SimulatedTraces traces = SimulatedTraces.run(5, 10_000_000_000L, 21);
        try (TopologyTestDriver driver = new TopologyTestDriver(
                TracesyncTopology.build(settings, topics, new PipelineStats()), settings.streamsProperties(), start)) {
            TestInputTopic<SegmentKey, TraceEvent> in = driver.createInputTopic("traces-all",
                    topics.segmentKey.serializer(), topics.traceEvent.serializer(), start, Duration.ZERO);
            traces.events.forEach(e -> in.pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
            driver.advanceWallClockTime(Duration.ofSeconds(2));
            Map<String, SyncFactor> streamed = driver.createOutputTopic(topics.factors, new StringDeserializer(),
                    topics.syncFactor.deserializer()).readKeyValuesToMap();
            Map<String, NodeFactor> offline = OfflineSync.factors(traces.pairs, settings.linkOptions(),
                    settings.networkOptions());
            assertEquals(offline.keySet(), streamed.keySet());
            offline.forEach((node, f) -> assertEquals(f.factor(), FactorRecords.factor(streamed.get(node)), node));
        }
    }
}
