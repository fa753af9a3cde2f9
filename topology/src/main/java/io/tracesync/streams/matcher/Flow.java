package io.tracesync.streams.matcher;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One packet of a segment key as seen so far: the connection it belongs to (addresses and ports, each possibly
 * unknown) and the first send and the first receive recorded for it. Only the first of each is kept: a
 * retransmission or duplicate pairs nothing, and first send × first receive is always causally valid (the first
 * receive of any copy follows the first send).
 */
final class Flow {

    static final int UNKNOWN_PORT = -1;

    final byte[] saddr;
    final byte[] daddr;
    final int sport;
    final int dport;
    Sighting send;
    Sighting recv;
    boolean matched;

    Flow(byte[] saddr, byte[] daddr, int sport, int dport) {
        this.saddr = saddr;
        this.daddr = daddr;
        this.sport = sport;
        this.dport = dport;
    }

    static Flow of(TraceEvent e) {
        return new Flow(bytes(e.getSaddr()), bytes(e.getDaddr()), port(e.getSport()), port(e.getDport()));
    }

    /** Addresses and ports are compared only where both sides carry them. */
    boolean sameConnection(TraceEvent e) {
        return same(saddr, bytes(e.getSaddr())) && same(daddr, bytes(e.getDaddr()))
                && same(sport, port(e.getSport())) && same(dport, port(e.getDport()));
    }

    Sighting side(Direction d) {
        return d == Direction.SEND ? send : recv;
    }

    Sighting other(Direction d) {
        return d == Direction.SEND ? recv : send;
    }

    void set(Direction d, Sighting s) {
        if (d == Direction.SEND) {
            send = s;
        } else {
            recv = s;
        }
    }

    private static boolean same(byte[] x, byte[] y) {
        return x == null || y == null || java.util.Arrays.equals(x, y);
    }

    private static boolean same(int x, int y) {
        return x == UNKNOWN_PORT || y == UNKNOWN_PORT || x == y;
    }

    private static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static int port(Integer p) {
        return Objects.requireNonNullElse(p, UNKNOWN_PORT);
    }
}
