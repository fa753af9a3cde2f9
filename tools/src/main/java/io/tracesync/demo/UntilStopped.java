package io.tracesync.demo;

import java.util.concurrent.CountDownLatch;

/**
 * Waits for the JVM to be asked to stop (Ctrl-C, SIGTERM) and holds its exit until {@link #close}, so that what the
 * caller started is stopped first: {@code try (UntilStopped s = new UntilStopped()) { …; s.await(); }}.
 */
public final class UntilStopped implements AutoCloseable {

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);

    public UntilStopped() {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tracesync-stop"));
    }

    /** Returns once the JVM is asked to stop. */
    public void await() throws InterruptedException {
        stop.await();
    }

    /** Lets the JVM exit. */
    @Override
    public void close() {
        closed.countDown();
    }
}
