package io.tracesync.streams;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** A simulated run's traces through the topology on the test driver, and the factors it published last. */
final class DriverRun {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    private DriverRun() {
    }

    /**
     * Every trace event of {@code traces} into the topology configured by {@code extra} (a mock registry and a fresh
     * state directory besides), then {@code emissions} seconds of wall-clock time: each node's last factor record.
     */
    static Map<String, SyncFactor> factors(SimulatedTraces traces, Map<String, String> extra, int emissions) {
        Map<String, String> config = new HashMap<>(Map.of(
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "state.dir", TestStateDirs.fresh()));
        config.putAll(extra);
        Settings settings = Settings.of(config);
        Topics topics = new Topics(settings);
        Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(
                TracesyncTopology.build(settings, topics, new PipelineStats()), settings.streamsProperties(), START)) {
            for (TraceEvent e : traces.events) {
                inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(t,
                        topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO))
                        .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e);
            }
            for (int i = 0; i < emissions; i++) {
                driver.advanceWallClockTime(Duration.ofSeconds(1));
            }
            return driver.createOutputTopic(topics.factors, new StringDeserializer(),
                    topics.syncFactor.deserializer()).readKeyValuesToMap();
        }
    }
}
