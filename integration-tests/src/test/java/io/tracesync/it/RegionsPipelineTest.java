package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.RegionalSync;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application with {@code network.regions} on a real broker and registry: the regions' tasks and the backbone's
 * exchange factors through their repartition topics and the backbone-factors topic under exactly_once_v2, a new
 * instance with its state wiped restores them from the changelogs, and the committed factors come to the offline
 * regions' references, at most 10 % wider (the forests and the ties depend on the order of the news:
 * {@code RegionExchangeTest}), every one holding the truth.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class RegionsPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** n0, n1 and n2 in region "n", the others in the region named by the empty string. */
    private static final String REGIONS = "^(?=n[0-2])(n)";

    @TempDir
    Path dir;

    @Test
    void regionsExchangeFactorsSurviveARestartAndAnswerAsTheOfflineRegions() throws Exception {
        Settings settings = settings();
        SimulatedTraces cluster = SimulatedTraces.run(6, 30_000_000_000L, 5);
        WipedRestart.run(settings, cluster, WAIT, app -> awaitOffline(settings, cluster));
    }

    /** A backbone-factors topic of another partition count would send factors to other tasks: refused at start. */
    @Test
    void aBackboneFactorsTopicOfOtherPartitionsIsRefused() throws Exception {
        Settings settings = settings();
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            admin.createTopics(List.of(new NewTopic(Topics.backboneFactorsOf(settings.get("application.id")), 3,
                    (short) 1))).all().get();
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TracesyncApp.start(settings).close());
        assertTrue(e.getMessage().contains("network.regions.partitions"), e.getMessage());
    }

    /** Waits until the committed factors have the offline regions' references and widths, all holding the truth. */
    private static void awaitOffline(Settings settings, SimulatedTraces cluster) throws Exception {
        RegionalSync offline = new RegionalSync(settings.networkOptions(), settings.regions(), 0);
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        for (SendReceive p : cluster.pairs) {
            p.applyTo(links.computeIfAbsent(p.link(), k -> new ConvexHullLink(settings.linkOptions())));
        }
        links.forEach((k, l) -> offline.update(LinkEstimate.of(k, l)));
        Map<String, NodeFactor> expected = Map.of();
        for (int i = 0; i < 20; i++) {
            expected = offline.evaluate(null);
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        String mismatch;
        while ((mismatch = mismatch(expected, FactorsTopic.latest(settings, WAIT), cluster)) != null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the factors never came to the offline regions' answer: " + mismatch);
            }
            Thread.sleep(500);
        }
    }

    private static String mismatch(Map<String, NodeFactor> expected, Map<String, SyncFactor> got,
            SimulatedTraces cluster) {
        if (!expected.keySet().equals(got.keySet())) {
            return "nodes " + got.keySet() + ", expected " + expected.keySet();
        }
        for (Map.Entry<String, NodeFactor> e : expected.entrySet()) {
            SyncFactor f = got.get(e.getKey());
            if (f.getUpPs() == null || f.getDownPs() == null || !e.getValue().reference().equals(f.getReference())) {
                return e.getKey() + ": " + f + ", expected " + e.getValue();
            }
            // the truth at the anchor: every record, whenever it came
            long t = f.getAnchorNs();
            Conversion c = Conversion.of(PublishedFactor.of(f).factor(), t);
            long truth = cluster.clock(f.getReference()).localAt(cluster.clock(e.getKey()).trueAt(t));
            assertTrue(c.lowerNs() - 1 <= truth && truth <= c.upperNs() + 1, c + " misses " + truth);
            long width = e.getValue().factor().upPs() + e.getValue().factor().downPs();
            if (f.getUpPs() + f.getDownPs() > 1.1 * width + 10) {
                return e.getKey() + ": width " + (f.getUpPs() + f.getDownPs()) + " ps, offline " + width;
            }
        }
        return null;
    }

    /** Settings whose application id and topics are this invocation's alone. */
    private Settings settings() {
        return Settings.of(SharedKafkaEnvironment.isolated("it-regions-" + UUID.randomUUID()))
                .with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200")
                .with("factors.min.change", "0")
                .with("links.min.change", "0")
                .with("network.regions", REGIONS)
                .with("network.regions.partitions", "2");
    }
}
