package io.tracesync.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or time runs out. */
final class Waiting {

    private Waiting() {
    }

    static void until(BooleanSupplier condition, Duration timeout, String failure) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure + " after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
    }
}
