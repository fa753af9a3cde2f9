package io.tracesync.bench;

import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.metrics.PipelineStats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The network work of the application fed the link step's summaries as the {@code network} hop carries them, on
 * virtual clocks ({@link VirtualTask}): the one network task ({@link NetworkStage}) or the regions' tasks and the
 * backbone's ({@link RegionalStage}).
 */
abstract class Stage {

    /** Per node that was published: whether its latest factor is bounded. */
    private final Map<String, Boolean> published = new HashMap<>();
    /** The counts of the tasks the factors come from, summed. */
    final PipelineStats stats = new PipelineStats();
    /** The emissions that published, and their factor lags, of the task the factors come from (all of them). */
    final Emissions emissions = new Emissions(stats);

    /** The summaries of one moment of link time, encoded as the {@code network} hop carries them. */
    abstract void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes);

    /** Lets the clocks run to {@code ns}, firing what falls due. */
    abstract void idleUntil(long ns);

    /** Sets the clocks to {@code ns}, every punctuation as far ahead as it was. */
    abstract void rebase(long ns);

    /** The clock of the task furthest behind: link time, or later while one is behind. */
    abstract long clockNs();

    /** Each task's thread time so far, {records, punctuations}. */
    abstract List<long[]> taskCpuNs();

    /** Notes a factor the stage published. */
    final void published(SyncFactor factor) {
        published.put(factor.getNode(), factor.getUpPs() != null && factor.getDownPs() != null);
    }

    final int publishedNodes() {
        return published.size();
    }

    final int boundedNodes() {
        return (int) published.values().stream().filter(b -> b).count();
    }
}
