package io.tracesync.streams.network;

/**
 * How far apart the network task's emissions must be for their evaluations to take at most {@code maxShare} of its
 * thread: after an emission whose evaluation and publication took c, the next waits until c / maxShare after its
 * start (the punctuation keeps them at least an emission interval apart besides). An emission evaluates every node's
 * factor from every link and publishes what changed, a cost that does not shrink with fewer summaries: at tens of
 * thousands of nodes hundreds of ms, and without spacing the task would spend its whole thread on evaluations and
 * fall behind its summaries for good.
 */
final class EmissionPacer {

    private final double maxShare;
    private long earliestMs = Long.MIN_VALUE;
    private long spacingMs;

    EmissionPacer(double maxShare) {
        if (!(maxShare > 0 && maxShare <= 1)) {
            throw new IllegalArgumentException("factors.emit.max.share must be in (0, 1]: " + maxShare);
        }
        this.maxShare = maxShare;
    }

    /** Whether an emission may start at {@code nowMs}. */
    boolean due(long nowMs) {
        return nowMs >= earliestMs;
    }

    /** An emission that started at {@code startMs} took {@code costNs}. */
    void emitted(long startMs, long costNs) {
        spacingMs = (long) Math.ceil(costNs / maxShare / 1e6);
        earliestMs = startMs + spacingMs;
    }

    double maxShare() {
        return maxShare;
    }

    /** The time the last emission asks before the next one starts, ms. */
    long spacingMs() {
        return spacingMs;
    }
}
