package io.tracesync.core.matching;

import io.tracesync.core.link.SendReceive;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One packet of a segment key as seen so far: the connection it belongs to (addresses and ports, each possibly
 * unknown) and the first send and the first receive recorded for it. The matching rule of the stream's matcher and
 * of the offline importers alike [Jabbarifar 2013, §3.6.1]: first send × first receive of a flow, on two different
 * nodes, is one message; a retransmission or duplicate pairs nothing, and the pair is always causally valid (the
 * first receive of any copy follows the first send). Not thread-safe.
 */
public final class PacketFlow {

    /** A port the tracer did not record. */
    public static final int UNKNOWN_PORT = -1;

    /** One node's record of the packet: which node, when (its own clock, ns). */
    public record Sighting(String node, long tsNs) {
    }

    /** What a sighting did to the flow it belongs to ({@link #offer}). */
    public enum Outcome {
        /** It completed the flow: {@link #message()} is one message. */
        PAIRED,
        /** A copy of a side already seen (a retransmission, or the flow is matched): nothing to do. */
        COPY,
        /** The very sighting already recorded: a duplicated record, not a packet. */
        DUPLICATE,
        /** Its node recorded the other side too: a node sending to itself. */
        SAME_NODE
    }

    private final byte[] saddr;
    private final byte[] daddr;
    private final int sport;
    private final int dport;
    private Sighting send;
    private Sighting recv;
    private boolean matched;

    /** A flow as stored: its connection, the sides seen (null: not yet) and whether it is matched. */
    public PacketFlow(byte[] saddr, byte[] daddr, int sport, int dport, Sighting send, Sighting recv,
            boolean matched) {
        this.saddr = saddr;
        this.daddr = daddr;
        this.sport = sport;
        this.dport = dport;
        this.send = send;
        this.recv = recv;
        this.matched = matched;
    }

    /** A new flow of one first sighting. */
    public static PacketFlow first(boolean isSend, Sighting s, byte[] saddr, byte[] daddr, int sport, int dport) {
        return new PacketFlow(saddr, daddr, sport, dport, isSend ? s : null, isSend ? null : s, false);
    }

    /**
     * The flow a sighting belongs to among {@code flows} (in the order they were created): the first of the same
     * connection that is matched, lacks this side, or holds this side from the same node; null for a new flow.
     */
    public static PacketFlow find(List<PacketFlow> flows, boolean isSend, String node, byte[] saddr, byte[] daddr,
            int sport, int dport) {
        for (PacketFlow f : flows) {
            if (f.sameConnection(saddr, daddr, sport, dport)) {
                Sighting same = f.side(isSend);
                if (f.matched || same == null || same.node().equals(node)) {
                    return f;
                }
            }
        }
        return null;
    }

    /** What {@code s}, found to belong to this flow ({@link #find}), does to it; records it when it pairs. */
    public Outcome offer(boolean isSend, Sighting s) {
        Sighting same = side(isSend);
        if (s.equals(same)) {
            return Outcome.DUPLICATE;
        }
        if (matched || same != null) {
            return Outcome.COPY;
        }
        if (side(!isSend).node().equals(s.node())) {
            return Outcome.SAME_NODE;
        }
        if (isSend) {
            send = s;
        } else {
            recv = s;
        }
        matched = true;
        return Outcome.PAIRED;
    }

    /** The message of a matched flow. */
    public SendReceive message() {
        if (!matched) {
            throw new IllegalStateException("the flow is not matched");
        }
        return new SendReceive(send.node(), send.tsNs(), recv.node(), recv.tsNs());
    }

    /** Addresses and ports are compared only where both sides carry them. */
    boolean sameConnection(byte[] s, byte[] d, int sp, int dp) {
        return same(saddr, s) && same(daddr, d) && same(sport, sp) && same(dport, dp);
    }

    private Sighting side(boolean isSend) {
        return isSend ? send : recv;
    }

    private static boolean same(byte[] x, byte[] y) {
        return x == null || y == null || Arrays.equals(x, y);
    }

    private static boolean same(int x, int y) {
        return x == UNKNOWN_PORT || y == UNKNOWN_PORT || x == y;
    }

    /** An address as the flow holds it: its bytes, or null when not recorded. */
    public static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A port as the flow holds it: {@link #UNKNOWN_PORT} when not recorded. */
    public static int port(Integer p) {
        return Objects.requireNonNullElse(p, UNKNOWN_PORT);
    }

    public byte[] saddr() {
        return saddr;
    }

    public byte[] daddr() {
        return daddr;
    }

    public int sport() {
        return sport;
    }

    public int dport() {
        return dport;
    }

    public Sighting send() {
        return send;
    }

    public Sighting recv() {
        return recv;
    }

    public boolean matched() {
        return matched;
    }
}
