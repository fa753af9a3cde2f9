package io.tracesync.bench;

import java.util.concurrent.atomic.AtomicLong;

/** What the floor application ({@link FloorTopology}) did: its store reads and writes and its records per hop. */
final class FloorCounts {

    final AtomicLong segmentReads = new AtomicLong();
    final AtomicLong segmentWrites = new AtomicLong();
    final AtomicLong pairsMade = new AtomicLong();
    final AtomicLong pairsForwarded = new AtomicLong();
    final AtomicLong pairWrites = new AtomicLong();
    final AtomicLong pendingSummaries = new AtomicLong();
    final AtomicLong summariesForwarded = new AtomicLong();
    final AtomicLong summaryWrites = new AtomicLong();

    /**
     * Whether all of {@code events} went through every hop: each read and written at the matcher, each pair made
     * forwarded and written at the link step, each summary forwarded and written at the last hop.
     */
    boolean done(long events) {
        return segmentWrites.get() >= events && pairsForwarded.get() == pairsMade.get()
                && pairWrites.get() == pairsMade.get() && pendingSummaries.get() == 0
                && summaryWrites.get() == summariesForwarded.get();
    }

    @Override
    public String toString() {
        return String.format("%,d segment reads, %,d segment writes, %,d pairs (%,d forwarded, %,d written), %,d "
                + "summaries (%,d written)", segmentReads.get(), segmentWrites.get(), pairsMade.get(),
                pairsForwarded.get(), pairWrites.get(), summariesForwarded.get(), summaryWrites.get());
    }
}
