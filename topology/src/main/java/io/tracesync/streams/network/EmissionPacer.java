package io.tracesync.streams.network;

/**
 * How far apart the network task's emissions must be for their evaluations to take at most {@code maxShare} of its
 * thread: after an emission whose evaluation and publication took c, the next waits until c · (1/maxShare − 1) after
 * its end (the punctuation keeps them at least an emission interval apart besides). An emission evaluates every
 * node's factor from every link and publishes what changed, a cost that does not shrink with fewer summaries: at tens
 * of thousands of nodes hundreds of ms, and without spacing the task would spend its whole thread on evaluations and
 * fall behind its summaries for good. The wait runs from the end, not the start: an emission first applies the
 * summaries arrived since the last (seconds at 60,000 nodes under the clock model), and counted from its start that
 * time would let the next emission follow at once, a whole evaluation for the few summaries arrived meanwhile.
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

    /** An emission that ended at {@code endMs} spent {@code costNs} evaluating and publishing. */
    void emitted(long endMs, long costNs) {
        spacingMs = (long) Math.ceil(costNs * (1 / maxShare - 1) / 1e6);
        earliestMs = endMs + spacingMs;
    }

    double maxShare() {
        return maxShare;
    }

    /** The time the last emission asks between its end and the next one's start, ms. */
    long spacingMs() {
        return spacingMs;
    }
}
