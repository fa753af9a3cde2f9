package io.tracesync.bench;

import io.tracesync.streams.metrics.PipelineStats;

/**
 * Counts a task's emissions that took in summaries and their factor lags (how long the oldest summary each reflects
 * had waited), from its {@link PipelineStats} around each punctuation.
 */
final class Emissions implements VirtualTask.Punctuations {

    private final PipelineStats stats;
    private long updatesBefore;
    private long count;
    private long lagMs;
    private long maxLagMs;

    Emissions(PipelineStats stats) {
        this.stats = stats;
    }

    @Override
    public void before() {
        updatesBefore = stats.networkUpdates.get();
    }

    @Override
    public void after() {
        if (stats.networkUpdates.get() > updatesBefore) {
            count++;
            lagMs += stats.factorLagMs.get();
            maxLagMs = Math.max(maxLagMs, stats.factorLagMs.get());
        }
    }

    /** Emissions that took in summaries. */
    long count() {
        return count;
    }

    long lagMs() {
        return lagMs;
    }

    long maxLagMs() {
        return maxLagMs;
    }
}
