package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.RegionalSync;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The topology with {@code network.regions} on the test driver: the regions' tasks and the backbone's exchange
 * factors each emission, and after as many exchanges as the offline {@link RegionalSync} the factors published
 * have its references and its widths (to 10^-3), every one holding the truth.
 */
class RegionsTopologyTest {

    private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");
    /** n0, n1 and n2 in region "n", the others in the region named by the empty string. */
    private static final String REGIONS = "^(?=n[0-2])(n)";
    private static final int EXCHANGES = 20;

    private final Settings settings = Settings.of(Map.of(
            "schema.registry.url", "mock://" + UUID.randomUUID(),
            "links.min.change", "0",
            "factors.min.change", "0",
            "network.regions", REGIONS,
            "network.regions.partitions", "2",
            "state.dir", TestStateDirs.fresh()));
    private final Topics topics = new Topics(settings);
    private final TopologyTestDriver driver = new TopologyTestDriver(
            TracesyncTopology.build(settings, topics, new PipelineStats()), settings.streamsProperties(), START);
    private final Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void regionsAndTheBackboneAnswerAsTheOfflineRegions() {
        SimulatedTraces traces = SimulatedTraces.run(6, 20_000_000_000L, 11);
        traces.events.forEach(e -> inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(t,
                topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO))
                .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e));
        for (int i = 0; i < EXCHANGES; i++) {
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
        TestOutputTopic<String, SyncFactor> out = driver.createOutputTopic(topics.factors, new StringDeserializer(),
                topics.syncFactor.deserializer());
        Map<String, SyncFactor> streamed = out.readKeyValuesToMap();

        RegionalSync offline = new RegionalSync(settings.networkOptions(), settings.regions(), 0);
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        for (SendReceive p : traces.pairs) {
            p.applyTo(links.computeIfAbsent(p.link(), k -> new ConvexHullLink(settings.linkOptions())));
        }
        links.forEach((k, l) -> offline.update(LinkEstimate.of(k, l)));
        Map<String, NodeFactor> expected = Map.of();
        for (int i = 0; i < EXCHANGES; i++) {
            expected = offline.evaluate(null);
        }
        assertEquals(expected.keySet(), streamed.keySet(), "nodes with factors");
        assertEquals(1, streamed.values().stream().map(SyncFactor::getReference).distinct().count(),
                "one reference across the regions");
        for (Map.Entry<String, NodeFactor> e : expected.entrySet()) {
            SyncFactor got = streamed.get(e.getKey());
            assertEquals(e.getValue().reference(), got.getReference(), e.getKey());
            // the stream's exchanges interleave with its emissions as they fall: near the same answer, not the same
            long width = e.getValue().factor().upPs() + e.getValue().factor().downPs();
            assertEquals(width, got.getUpPs() + got.getDownPs(), 1e-3 * width + 10, e.getKey() + " " + got);
            long t = got.getAnchorNs();
            Conversion c = Conversion.of(PublishedFactor.of(got).factor(), t);
            long truth = traces.clock(got.getReference()).localAt(traces.clock(e.getKey()).trueAt(t));
            assertTrue(c.lowerNs() - 1 <= truth && truth <= c.upperNs() + 1, c + " misses " + truth);
        }
    }

    /** Regions exchange at emissions: the deterministic mode, which has none, refuses them. */
    @Test
    void theDeterministicModeRefusesRegions() {
        assertThrows(ConfigException.class, () -> settings.with("factors.emit.interval", "0"));
        assertThrows(ConfigException.class, () -> settings.with("links.with.network", "true"));
        assertThrows(ConfigException.class, () -> Settings.of(Map.of("network.regions", "^rack\\d+")),
                "a pattern without a group");
    }
}
