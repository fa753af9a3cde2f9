package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The second guarantee through the topology: with {@code link.max.drift.ppm} every factor record carries the node's
 * conversion under the datasheet alone, to the same reference, and it holds the truth at its anchor and every second
 * of the 18 before it; without it no record carries one.
 */
class DatasheetFactorsTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");
    private static final long SECOND = 1_000_000_000L;

    @Test
    void everyRecordCarriesADatasheetBoundThatHoldsTheTruth() {
        // clocks drifting up to 100 ppm with a ±2 ppm cycle on top: within R = 110 ppm of true
        SimulatedTraces traces = SimulatedTraces.run(SimulationConfig.builder().nodes(6).durationNs(20_000_000_000L)
                .seed(11).maxDriftPpm(100).wander(true).wanderAmplitudePpm(2).build());
        Map<String, SyncFactor> got = run(traces, Map.of("link.max.drift.ppm", "110"));
        assertEquals(traces.nodes.size(), got.size());
        for (SyncFactor r : got.values()) {
            PublishedFactor f = PublishedFactor.of(r);
            assertNotNull(f.datasheet(), r.getNode() + " carries no datasheet bound");
            long anchor = f.datasheet().anchorNs();
            for (long t = anchor; t > anchor - 18 * SECOND; t -= SECOND) {
                Conversion c = f.convertUnderDatasheet(t).orElseThrow();
                long truth = traces.clock(r.getReference().toString())
                        .localAt(traces.clock(r.getNode().toString()).trueAt(t));
                assertTrue(c.lowerNs() <= truth && truth <= c.upperNs(), r.getNode() + " at " + t + ": " + c
                        + " misses " + truth);
            }
        }
    }

    @Test
    void withoutALargestDriftNoRecordCarriesOne() {
        SimulatedTraces traces = SimulatedTraces.run(4, 10_000_000_000L, 3);
        run(traces, Map.of()).values().forEach(r -> assertNull(r.getDatasheet(), r::toString));
    }

    private static Map<String, SyncFactor> run(SimulatedTraces traces, Map<String, String> extra) {
        Map<String, String> config = new HashMap<>(Map.of(
                "schema.registry.url", "mock://" + UUID.randomUUID(),
                "state.dir", System.getProperty("java.io.tmpdir") + "/tracesync-ttd-" + UUID.randomUUID()));
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
            driver.advanceWallClockTime(Duration.ofSeconds(2));
            return driver.createOutputTopic(topics.factors, new StringDeserializer(),
                    topics.syncFactor.deserializer()).readKeyValuesToMap();
        }
    }
}
