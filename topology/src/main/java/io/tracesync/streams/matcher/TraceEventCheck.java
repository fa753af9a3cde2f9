package io.tracesync.streams.matcher;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.errors.InvalidTraceEventException;
import java.nio.ByteBuffer;

/**
 * Checks one trace event before it is matched and gives the key it is matched by. Every rejection says why; the
 * record then goes to the dead-letter topic.
 */
public final class TraceEventCheck {

    private static final long UINT32 = 1L << 32;
    /** Timestamps stay below 2^62 ns (146 years), so sums and differences of two never overflow a long. */
    private static final long MAX_TS_NS = 1L << 62;

    private final String topicPrefix;

    /** @param topicPrefix per-node topics' prefix ({@code traces.}): the node named in an event must be its topic's */
    public TraceEventCheck(String topicPrefix) {
        this.topicPrefix = topicPrefix;
    }

    /** The segment key of a valid event, as matched: {@code seq:ack_seq:flags}. */
    public String segmentKey(String topic, SegmentKey key, TraceEvent e) {
        if (e == null) {
            throw new InvalidTraceEventException("empty trace event (null value)");
        }
        String node = e.getNode();
        if (node == null || node.isEmpty()) {
            throw new InvalidTraceEventException("trace event without a node");
        }
        if (topicPrefix != null && topic != null && topic.startsWith(topicPrefix)
                && !(topic.length() == topicPrefix.length() + node.length() && topic.endsWith(node))) {
            throw new InvalidTraceEventException("event of node " + node + " in topic " + topic);
        }
        // each reason is only built for an event that fails: this runs for every input record
        long ts = e.getTsNs();
        if (ts < 0) {
            throw new InvalidTraceEventException("negative timestamp " + ts + " on node " + node);
        }
        if (ts >= MAX_TS_NS) {
            throw new InvalidTraceEventException("timestamp " + ts + " on node " + node
                    + " overflows (2^62 ns or more)");
        }
        if (e.getSeq() < 0 || e.getSeq() >= UINT32) {
            throw new InvalidTraceEventException("seq " + e.getSeq() + " is not a 32-bit sequence number");
        }
        if (e.getAckSeq() < 0 || e.getAckSeq() >= UINT32) {
            throw new InvalidTraceEventException("ack_seq " + e.getAckSeq() + " is not a 32-bit sequence number");
        }
        if (e.getFlags() < 0 || e.getFlags() >= 256) {
            throw new InvalidTraceEventException("flags " + e.getFlags() + " is not a TCP flags byte");
        }
        checkPort(e.getSport(), "sport");
        checkPort(e.getDport(), "dport");
        checkAddress(e.getSaddr(), "saddr");
        checkAddress(e.getDaddr(), "daddr");
        if (e.getLength() != null && e.getLength() < 0) {
            throw new InvalidTraceEventException("negative length " + e.getLength());
        }
        if (key != null && (key.getSeq() != e.getSeq() || key.getAckSeq() != e.getAckSeq()
                || key.getFlags() != e.getFlags())) {
            throw new InvalidTraceEventException("record key " + key + " does not match the event's seq/ack_seq/flags");
        }
        return SegmentPartitioning.key(e.getSeq(), e.getAckSeq(), e.getFlags());
    }

    private static void checkPort(Integer port, String name) {
        if (port != null && (port < 0 || port >= 65536)) {
            throw new InvalidTraceEventException(name + " " + port + " is not a port");
        }
    }

    private static void checkAddress(ByteBuffer a, String name) {
        if (a != null && a.remaining() != 4 && a.remaining() != 16) {
            throw new InvalidTraceEventException(name + " of " + a.remaining()
                    + " bytes is neither IPv4 (4) nor IPv6 (16)");
        }
    }
}
