package io.tracesync.bench;

import io.tracesync.streams.metrics.PipelineStats;
import java.util.List;

/**
 * The network work of the application fed the link step's summaries as the {@code network} hop carries them, on
 * virtual clocks ({@link VirtualTask}): the one network task ({@link NetworkStage}) or the regions' tasks and the
 * backbone's ({@link RegionalStage}).
 */
interface Stage {

    /** The summaries of one moment of link time, encoded as the {@code network} hop carries them. */
    void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes);

    /** Lets the clocks run to {@code ns}, firing what falls due. */
    void idleUntil(long ns);

    /** Sets the clocks to {@code ns}, every punctuation as far ahead as it was. */
    void rebase(long ns);

    /** The clock of the task furthest behind: link time, or later while one is behind. */
    long clockNs();

    /** Each task's thread time so far, {records, punctuations}. */
    List<long[]> taskCpuNs();

    /** The emissions that published, and their factor lags, of the task the factors come from (all of them). */
    Emissions emissions();

    /** The counts of the tasks the factors come from, summed. */
    PipelineStats stats();

    int publishedNodes();

    int boundedNodes();
}
