package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.Settings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The network stage fed with template links' summaries moved onto a random network: the factors it publishes hold
 * that network's true clocks (so the summaries moved onto its links are as consistent as the templates' were), in a
 * cold start and in the steady state, with linear and wandering template clocks.
 */
class NetworkStageRunTest {

    private static final long S = 1_000_000_000L;

    private static NetworkStageRun.Result run(long fromNs, boolean wander, StringWriter out) {
        Settings settings = Settings.of(wander ? Map.of("schema.registry.url", "mock://" + UUID.randomUUID())
                : Map.of("schema.registry.url", "mock://" + UUID.randomUUID(), "link.curvature", "0"));
        return new NetworkStageRun(new NetworkStageRun.Config(300, 4, 5, 20, fromNs, 20 * S, 5 * S, 10 * S, wander,
                0, 0, 7), settings).run(new PrintWriter(out));
    }

    private static void assertConsistent(NetworkStageRun.Result r, String text) {
        assertTrue(r.factorsChecked() > 300, text);
        assertEquals(r.factorsChecked(), r.factorsHolding(), text);
        assertEquals(0, r.inconsistentLinks(), text);
        assertTrue(r.summaries() > 0 && r.emissions() > 0 && r.processS() > 0, text);
    }

    @Test
    void aColdStartPublishesEveryNodeWithBoundsThatHoldTheTruth() {
        for (boolean wander : new boolean[] {false, true}) {
            StringWriter out = new StringWriter();
            NetworkStageRun.Result r = run(0, wander, out);
            assertConsistent(r, out.toString());
            assertTrue(r.allBoundedS() > 0 && r.allBoundedS() < 20, out.toString());
            // new links emit more than one summary per link per second in their first seconds
            assertTrue(r.summaries() / r.linkS() > 1_200, out.toString());
        }
    }

    /**
     * With regions, the regions' tasks and the backbone's exchange factors on clocks of their own: every node is
     * published, bounded, by factors that hold the truth, and every task's share of its thread is reported.
     */
    @Test
    void regionsOnTasksOfTheirOwnPublishFactorsThatHoldTheTruth() {
        Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID(),
                "network.regions", RandomNetwork.REGION_PATTERN, "network.regions.partitions", "2"));
        StringWriter out = new StringWriter();
        NetworkStageRun.Result r = new NetworkStageRun(new NetworkStageRun.Config(300, 4, 5, 20, 0, 20 * S, 5 * S,
                10 * S, true, 6, 0.05, 7), settings).run(new PrintWriter(out));
        String text = out.toString();
        assertConsistent(r, text);
        assertTrue(r.allBoundedS() > 0 && r.allBoundedS() < 20, text);
        assertEquals(3, r.taskShares().length, "two regions' tasks and the backbone's");
        assertTrue(r.taskShares()[0] > 0 && r.taskShares()[1] > 0 && r.taskShares()[2] > 0, text);
    }

    @Test
    void theSteadyStateStartsFromEveryLinksLatestSummary() {
        StringWriter out = new StringWriter();
        NetworkStageRun.Result r = run(31 * 60 * S, true, out);
        String text = out.toString();
        assertConsistent(r, text);
        assertTrue(text.contains("loaded 1,200 links' latest summaries"), text);
        assertEquals(0.0, r.allPublishedS(), 0.2, text);
    }
}
