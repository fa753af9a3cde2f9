package io.tracesync.core.link;

import java.util.Arrays;

/**
 * Compact binary form of a link's full state, for state stores: options, counters, windows, their epochs and hull
 * chains. Integers are zig-zag varints; chain coordinates are deltas from the previous vertex, so a steady link (a
 * dozen vertices per epoch) takes a few hundred bytes per window. Layout version 10 (version 9, with an unshifted
 * window of each of the model's lengths only, version 8, without the excursion and the unshifted windows, version 7,
 * without the steps the windows observed, version 6, without the frequency steps and the datasheet bound, version 5,
 * without the time of the last restart, version 4, without the turn the data show and with the horizon's straight
 * window only, version 3, without straight windows, and versions 1 and 2, one window, are still decoded):
 * <pre>
 * version:u8  flags:u8(started|failing)
 * horizon minDelayAB minDelayBA curvatureBits shortestWindow stepBits stepInterval maxDriftBits excursion
 * latestX pairs stored stale failures answer restartedAt [datasheet]
 * datasheet = baseX baseDiff upperKeyBits lowerKeyBits        with a largest drift only ({@link DatasheetBounds})
 * window* plain* (window since)*
 *                          one per length of {@link LinkOptions#windows()}; with an excursion the unshifted ones
 *                          ({@link PlainWindows}), one per length of {@link PlainWindows#lengths}; under the
 *                          model with known minimum delays the straight ones (those lengths and the horizon),
 *                          each with when it last started again
 * window  = flags(hasNewer|olderFailed|newerFailed|olderWhole|newerWhole|hasEndedSlope|hasTurn|hasEndedSpread
 *           |hasStep)
 *           olderStart newerStart olderFrom newerFrom epoch [endedSlope] [turn] [endedSpread] [step]
 *                                                                               doubles as their bits
 *           older:chains [newer:chains]        chains = upper lower;  chain = n (x0 y0) (dx dy)*(n-1)
 * </pre>
 */
public final class LinkStateCodec {

    private static final byte VERSION = 10;

    private LinkStateCodec() {
    }

    public static byte[] encode(ConvexHullLink link) {
        ConvexHullLink.State s = link.state();
        Writer w = new Writer();
        w.buf[w.pos++] = VERSION;
        w.buf[w.pos++] = (byte) ((s.started() ? 1 : 0) | (s.failing() ? 2 : 0));
        LinkOptions o = s.options();
        for (long v : new long[] {o.horizonNs(), o.minDelayAtoBNs(), o.minDelayBtoANs(),
                Double.doubleToLongBits(o.curvaturePpbPerS()), o.shortestWindowNs(),
                Double.doubleToLongBits(o.stepPpb()), o.stepIntervalNs(), Double.doubleToLongBits(o.maxDriftPpm()),
                o.excursionNs(), s.latestX(), s.pairs(), s.stored(), s.stale(), s.failures(), s.answer(),
                s.restartedAt()}) {
            w.varLong(v);
        }
        DatasheetBounds.State d = s.datasheet();
        if (d != null) {
            for (long v : new long[] {d.baseX(), d.baseDiff(), Double.doubleToLongBits(d.upperKey()),
                    Double.doubleToLongBits(d.lowerKey())}) {
                w.varLong(v);
            }
        }
        for (Window.State win : s.windows()) {
            w.window(win);
        }
        for (Window.State win : s.plain()) {
            w.window(win);
        }
        for (int i = 0; i < s.straights().length; i++) {
            w.window(s.straights()[i]);
            w.varLong(s.straightSince()[i]);
        }
        return Arrays.copyOf(w.buf, w.pos);
    }

    public static ConvexHullLink decode(byte[] bytes) {
        if (bytes.length < 2) {
            throw new IllegalArgumentException("truncated link state");
        }
        Reader r = new Reader(bytes);
        int version = r.bytes[r.pos++];
        if (version < 1 || version > VERSION) {
            throw new IllegalArgumentException("unknown link state version " + version);
        }
        int flags = r.bytes[r.pos++];
        ConvexHullLink.State state = version >= 3 ? decodeWindows(r, version, flags) : decodeOneWindow(r, flags);
        if (r.pos != bytes.length) {
            throw new IllegalArgumentException("trailing bytes in link state");
        }
        return ConvexHullLink.restore(state);
    }

    private static ConvexHullLink.State decodeWindows(Reader r, int version, int flags) {
        LinkOptions options;
        try {
            options = new LinkOptions(r.varLong(), r.varLong(), r.varLong(), Double.longBitsToDouble(r.varLong()),
                    r.varLong());
            if (version >= 7) {
                options = options.withSteps(Double.longBitsToDouble(r.varLong()), r.varLong())
                        .withMaxDrift(Double.longBitsToDouble(r.varLong()));
            }
            if (version >= 9) {
                options = options.withExcursion(r.varLong());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad options in link state: " + e.getMessage(), e);
        }
        boolean started = (flags & 1) != 0;
        long latestX = r.varLong();
        long pairs = r.varLong();
        long stored = r.varLong();
        long stale = r.varLong();
        long failures = r.varLong();
        long answer = r.varLong();
        int windows = options.windows().length;
        if (answer < 0 || answer >= windows) {
            throw new IllegalArgumentException("bad answering window " + answer);
        }
        long restartedAt = version >= 6 ? r.varLong() : Long.MIN_VALUE;
        DatasheetBounds.State datasheet = options.maxDriftPpm() > 0
                ? new DatasheetBounds.State(r.varLong(), r.varLong(), Double.longBitsToDouble(r.varLong()),
                        Double.longBitsToDouble(r.varLong()))
                : null;
        Window.State[] model = new Window.State[windows];
        for (int i = 0; i < windows; i++) {
            model[i] = r.window(version);
        }
        Window.State[] plain = new Window.State[PlainWindows.lengths(options).length];
        // layout 9 had the model's lengths alone: the shorter one starts at the latest time
        for (int i = version >= 10 ? 0 : Math.max(0, plain.length - windows); i < plain.length; i++) {
            plain[i] = r.window(version);
        }
        int n = StraightFits.lengths(options).length;
        Window.State[] straights = new Window.State[n];
        long[] since = new long[n];
        for (int i = 0; i < n; i++) {
            // layout 4 had the horizon's straight window alone, layout 3 none: the others start at the latest time
            if (version >= 5 || version == 4 && i == n - 1) {
                straights[i] = r.window(version);
                since[i] = r.varLong();
            }
        }
        return new ConvexHullLink.State(options, started, (flags & 2) != 0, latestX, pairs, stored, stale, failures,
                (int) answer, restartedAt, datasheet, model, plain, straights, since);
    }

    /** Layouts 1 and 2: the options of linear clocks and one window (layout 1 lacks the failing flag). */
    private static ConvexHullLink.State decodeOneWindow(Reader r, int flags) {
        LinkOptions options = new LinkOptions(r.varLong(), r.varLong(), r.varLong());
        long latestX = r.varLong();
        long olderStart = r.varLong();
        long newerStart = r.varLong();
        long pairs = r.varLong();
        long stored = r.varLong();
        long stale = r.varLong();
        long failures = r.varLong();
        long epoch = r.varLong();
        Corridor older = r.corridor((flags & 4) != 0);
        Corridor newer = (flags & 2) != 0 ? r.corridor((flags & 8) != 0) : null;
        Window.State window = new Window.State(olderStart, newerStart, Long.MIN_VALUE, newerStart, epoch, false,
                false, Double.NaN, Double.NaN, Double.NaN, Double.NaN, older, newer);
        return new ConvexHullLink.State(options, (flags & 1) != 0, (flags & 16) != 0, latestX, pairs, stored, stale,
                failures, 0, Long.MIN_VALUE, null, new Window.State[] {window}, new Window.State[0],
                new Window.State[0], new long[0]);
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

        void window(Window.State win) {
            varLong((win.newer() != null ? 1 : 0) | (win.older().failed ? 2 : 0)
                    | (win.newer() != null && win.newer().failed ? 4 : 0) | (win.olderWhole() ? 8 : 0)
                    | (win.newerWhole() ? 16 : 0) | (Double.isNaN(win.endedSlope()) ? 0 : 32)
                    | (Double.isNaN(win.turn()) ? 0 : 64) | (Double.isNaN(win.endedSpread()) ? 0 : 128)
                    | (Double.isNaN(win.step()) ? 0 : 256));
            for (long v : new long[] {win.olderStart(), win.newerStart(), win.olderFrom(), win.newerFrom(),
                    win.epoch()}) {
                varLong(v);
            }
            for (double v : new double[] {win.endedSlope(), win.turn(), win.endedSpread(), win.step()}) {
                if (!Double.isNaN(v)) {
                    varLong(Double.doubleToLongBits(v));
                }
            }
            corridor(win.older());
            if (win.newer() != null) {
                corridor(win.newer());
            }
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

        Window.State window(int version) {
            long wf = varLong();
            long olderStart = varLong();
            long newerStart = varLong();
            long olderFrom = varLong();
            long newerFrom = varLong();
            long epoch = varLong();
            boolean since5 = version >= 5;
            double endedSlope = since5 && (wf & 32) != 0 ? Double.longBitsToDouble(varLong()) : Double.NaN;
            double turn = since5 && (wf & 64) != 0 ? Double.longBitsToDouble(varLong()) : Double.NaN;
            double endedSpread = version >= 8 && (wf & 128) != 0 ? Double.longBitsToDouble(varLong()) : Double.NaN;
            double step = version >= 8 && (wf & 256) != 0 ? Double.longBitsToDouble(varLong()) : Double.NaN;
            Corridor older = corridor((wf & 2) != 0);
            Corridor newer = (wf & 1) != 0 ? corridor((wf & 4) != 0) : null;
            return new Window.State(olderStart, newerStart, olderFrom, newerFrom, epoch, since5 && (wf & 8) != 0,
                    since5 && (wf & 16) != 0, endedSlope, turn, endedSpread, step, older, newer);
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
