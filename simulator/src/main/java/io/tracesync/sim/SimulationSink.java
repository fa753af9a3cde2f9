package io.tracesync.sim;

/** Where a simulation's output goes, in true-time order: the files ({@link OutputDirectory}) or a test. */
public interface SimulationSink {

    /** A packet traced on a node (SEND on the sender, RECV on the receiver). */
    void traceEvent(TraceEvent event);

    /** A segment's first SEND matched with its first (and only) RECV, at that RECV. */
    void pair(MatchedSegment pair);

    /** A breakpoint of a node's true clock; each node's breakpoints come in increasing true time. */
    void clockBreakpoint(int node, long trueNs, long localNs);

    /** A jump of a node's clock, a poll of its time daemon or a slew's end ({@link ClockEvent}), in true time order. */
    default void clockEvent(int node, long trueNs, ClockEvent kind, double value) {
    }

    /**
     * One traced packet, TCP header fields included ({@code seq}, {@code ack} 32-bit; flags are always PSH+ACK),
     * with the true time it happened at (not part of the trace files).
     */
    record TraceEvent(int node, long trueNs, long localNs, boolean send, int src, int dst, int srcPort, int dstPort,
                      long seq, long ack) {
    }

    /** A matched pair in node-local time, with the true times of its first SEND and its RECV. */
    record MatchedSegment(int sender, long sendNs, int receiver, long recvNs, long trueSendNs, long trueRecvNs) {
    }
}
