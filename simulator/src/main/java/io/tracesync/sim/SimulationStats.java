package io.tracesync.sim;

/** Counts of one run. */
public final class SimulationStats {

    /** SEND events, retransmissions included. */
    public long sends;
    /** SEND events that were retransmissions. */
    public long retransmissions;
    /** RECV events (= matched pairs: each segment is received at most once). */
    public long recvs;
    /** Transmissions the network lost. */
    public long dropped;
    /** Segments given up after the last retry. */
    public long abandoned;
    /** Clock breakpoints (rows of the ground-truth table). */
    public long breakpoints;
    /** Jumps of the clocks ({@link ClockJumps}). */
    public long jumps;

    public long events() {
        return sends + recvs;
    }
}
