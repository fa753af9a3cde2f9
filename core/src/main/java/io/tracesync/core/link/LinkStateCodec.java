package io.tracesync.core.link;

import java.util.Arrays;

/**
 * Compact binary form of a link's full state, for state stores: options, counters, epochs and their hull
 * chains. Integers are zig-zag varints; chain coordinates are deltas from the previous vertex, so a steady link
 * (a dozen vertices per epoch) takes a few hundred bytes. Layout version 2 (version 1, still decoded, lacks the
 * failing flag):
 * <pre>
 * version:u8  flags:u8(started|hasNewer|olderFailed|newerFailed|failing)
 * horizon minDelayAB minDelayBA latestX olderStart newerStart pairs stored stale failures epoch
 * older:chains  [newer:chains]        chains = upper lower;  chain = n (x0 y0) (dx dy)*(n-1)
 * </pre>
 */
public final class LinkStateCodec {

    private static final byte VERSION = 2;

    private LinkStateCodec() {
    }

    public static byte[] encode(ConvexHullLink link) {
        Writer w = new Writer();
        w.buf[w.pos++] = VERSION;
        w.buf[w.pos++] = (byte) ((link.started ? 1 : 0) | (link.newer != null ? 2 : 0)
                | (link.older.failed ? 4 : 0) | (link.newer != null && link.newer.failed ? 8 : 0)
                | (link.failing ? 16 : 0));
        LinkOptions o = link.options();
        for (long v : new long[] {o.horizonNs(), o.minDelayAtoBNs(), o.minDelayBtoANs(), link.latestX,
                link.olderStart, link.newerStart, link.pairs, link.stored, link.stale, link.failures, link.epoch}) {
            w.varLong(v);
        }
        w.corridor(link.older);
        if (link.newer != null) {
            w.corridor(link.newer);
        }
        return Arrays.copyOf(w.buf, w.pos);
    }

    public static ConvexHullLink decode(byte[] bytes) {
        if (bytes.length < 2) {
            throw new IllegalArgumentException("truncated link state");
        }
        Reader r = new Reader(bytes);
        int version = r.bytes[r.pos++];
        if (version != VERSION && version != 1) {
            throw new IllegalArgumentException("unknown link state version " + version);
        }
        int flags = r.bytes[r.pos++];
        ConvexHullLink link = new ConvexHullLink(new LinkOptions(r.varLong(), r.varLong(), r.varLong()));
        link.started = (flags & 1) != 0;
        link.failing = (flags & 16) != 0;
        link.latestX = r.varLong();
        link.olderStart = r.varLong();
        link.newerStart = r.varLong();
        link.pairs = r.varLong();
        link.stored = r.varLong();
        link.stale = r.varLong();
        link.failures = r.varLong();
        link.epoch = r.varLong();
        link.older = r.corridor((flags & 4) != 0);
        link.newer = (flags & 2) != 0 ? r.corridor((flags & 8) != 0) : null;
        if (r.pos != bytes.length) {
            throw new IllegalArgumentException("trailing bytes in link state");
        }
        return link;
    }

    private static final class Writer {
        byte[] buf = new byte[128];
        int pos;

        void varLong(long v) {
            if (buf.length - pos < 10) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            long z = (v << 1) ^ (v >> 63);
            while ((z & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((z & 0x7F) | 0x80);
                z >>>= 7;
            }
            buf[pos++] = (byte) z;
        }

        void corridor(Corridor c) {
            chain(c.upper);
            chain(c.lower);
        }

        void chain(HalfHull h) {
            varLong(h.size);
            long px = 0;
            long py = 0;
            for (int i = 0; i < h.size; i++) {
                varLong(h.x(i) - px); // wrapping deltas round-trip exactly
                varLong(h.y(i) - py);
                px = h.x(i);
                py = h.y(i);
            }
        }
    }

    private static final class Reader {
        final byte[] bytes;
        int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        long varLong() {
            long z = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                if (pos >= bytes.length) {
                    throw new IllegalArgumentException("truncated link state");
                }
                byte b = bytes[pos++];
                z |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return (z >>> 1) ^ -(z & 1);
                }
            }
            throw new IllegalArgumentException("malformed varint in link state");
        }

        Corridor corridor(boolean failed) {
            Corridor c = new Corridor();
            chain(c.upper);
            chain(c.lower);
            c.failed = failed;
            return c;
        }

        void chain(HalfHull h) {
            long n = varLong();
            if (n < 0 || n > bytes.length) {
                throw new IllegalArgumentException("bad chain length " + n);
            }
            long x = 0;
            long y = 0;
            for (int i = 0; i < n; i++) {
                x += varLong();
                y += varLong();
                h.insertLast(x, y);
            }
        }
    }
}
