package io.tracesync.streams.matcher;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
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
                && !topic.substring(topicPrefix.length()).equals(node)) {
            throw new InvalidTraceEventException("event of node " + node + " in topic " + topic);
        }
        if (e.getTsNs() < 0) {
            throw new InvalidTraceEventException("negative timestamp " + e.getTsNs() + " on node " + node);
        }
        check(e.getTsNs() < MAX_TS_NS, "timestamp " + e.getTsNs() + " on node " + node
                + " overflows (2^62 ns or more)");
        check(e.getSeq() >= 0 && e.getSeq() < UINT32, "seq " + e.getSeq() + " is not a 32-bit sequence number");
        check(e.getAckSeq() >= 0 && e.getAckSeq() < UINT32, "ack_seq " + e.getAckSeq()
                + " is not a 32-bit sequence number");
        check(e.getFlags() >= 0 && e.getFlags() < 256, "flags " + e.getFlags() + " is not a TCP flags byte");
        checkPort(e.getSport(), "sport");
        checkPort(e.getDport(), "dport");
        checkAddress(e.getSaddr(), "saddr");
        checkAddress(e.getDaddr(), "daddr");
        check(e.getLength() == null || e.getLength() >= 0, "negative length " + e.getLength());
        if (key != null && (key.getSeq() != e.getSeq() || key.getAckSeq() != e.getAckSeq()
                || key.getFlags() != e.getFlags())) {
            throw new InvalidTraceEventException("record key " + key + " does not match the event's seq/ack_seq/flags");
        }
        return SegmentPartitioning.key(e.getSeq(), e.getAckSeq(), e.getFlags());
    }

    private static void checkPort(Integer port, String name) {
        check(port == null || (port >= 0 && port < 65536), name + " " + port + " is not a port");
    }

    private static void checkAddress(ByteBuffer a, String name) {
        check(a == null || a.remaining() == 4 || a.remaining() == 16,
                name + " of " + (a == null ? 0 : a.remaining()) + " bytes is neither IPv4 (4) nor IPv6 (16)");
    }

    private static void check(boolean ok, String reason) {
        if (!ok) {
            throw new InvalidTraceEventException(reason);
        }
    }
}
