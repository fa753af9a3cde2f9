package io.tracesync.it;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import java.time.Duration;
import java.util.Map;

/** Compares the latest factor records with an expected answer (the offline one, usually). */
final class FactorAnswers {

    private FactorAnswers() {
    }

    /** Waits until the committed factors of every node equal the expected ones. */
    static void await(Settings settings, Map<String, NodeFactor> expected, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String mismatch;
        while ((mismatch = differences(expected, FactorsTopic.latest(settings, timeout))) != null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("sync.factors never equalled the expected answer: " + mismatch);
            }
            Thread.sleep(500);
        }
    }

    /** The first difference, or null when every node has its expected reference and factor. */
    static String differences(Map<String, NodeFactor> expected, Map<String, SyncFactor> got) {
        if (!expected.keySet().equals(got.keySet())) {
            return "nodes " + got.keySet() + " instead of " + expected.keySet();
        }
        for (NodeFactor e : expected.values()) {
            SyncFactor g = got.get(e.node());
            if (!e.reference().equals(g.getReference()) || !e.factor().equals(PublishedFactor.of(g).factor())) {
                return e.node() + ": " + g + " instead of " + e;
            }
        }
        return null;
    }
}
