package io.tracesync.it;

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
        while ((mismatch = FactorsTopic.differences(expected, FactorsTopic.latest(settings, timeout))) != null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("sync.factors never equalled the expected answer: " + mismatch);
            }
            Thread.sleep(500);
        }
    }
}
