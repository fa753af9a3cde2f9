package io.tracesync.core.link;

import java.util.Arrays;

/**
 * A test in a few floating-point operations that a pair is redundant in every epoch of every window of a link, so
 * that the usual pair — far from the clock line — costs one comparison instead of an exact test per epoch.
 *
 * <p>An a-&gt;b point (x, y) is redundant in an epoch iff y + ε(x) ≥ U(x), where U, the corridor's upper envelope, is
 * convex (the largest value of the compatible lines) and ε, the clock model's allowance (plus the excursion Φ, a
 * constant), is concave; so the threshold U − ε is convex, and so is its maximum T over the epochs. Over an interval
 * [from, to] of x, T lies below its chord through T(from) and T(to): a point above the chord by more than the doubles'
 * error is redundant everywhere. The b-&gt;a side mirrors it with the concave lower envelope plus ε. A pair that
 * narrows a corridor only lowers its U and raises its L, so thresholds built before stay valid (only less sharp) until
 * the interval moves; a rotation or restart, which replaces corridors, clears them. An epoch a pair narrowed is marked
 * and its thresholds on that side sharpened only when a later pair fails the test (a young epoch's slope range, wide
 * when the filter was built, narrows fast). The filter is exact in effect: a pair it passes would have been REDUNDANT
 * in every epoch, so the link's state does not depend on it.
 */
final class RedundancyFilter {

    /** Above every rounding error of the doubles below while all offsets stay within {@link Corridor#RANGE}. */
    private static final double TOLERANCE_NS = 8;
    /** How far from the latest time the filter reaches, at most: a second of the usual pairs. */
    private static final long MAX_REACH = 1_000_000_000L;
    /** Its least reach, ns. */
    private static final long MIN_REACH = 1024;
    /** Pairs per interval below which the reach doubles, and above which it halves. */
    private static final long FEW_PAIRS = 64;
    private static final long MANY_PAIRS = 256;

    /** How far the filter reaches now: halved while it holds many pairs, doubled while few (see {@link #reach}). */
    private long reach = MAX_REACH;
    /** The link's pair count when the filter was last built. */
    private long pairsAtBuild;

    private long from = 1;
    private long to = 0;
    private long refY;
    private double aboveAt;
    private double aboveRate;
    private double belowAt;
    private double belowRate;
    /** Each epoch's thresholds at from and at to (window i's older epoch at 2i, its newer at 2i + 1). */
    private double[] aboveFrom = new double[0];
    private double[] aboveTo = new double[0];
    private double[] belowFrom = new double[0];
    private double[] belowTo = new double[0];
    /** Each window's chord: its value at from and its rate, NaN at from while a side of an epoch is open. */
    private double[] windowAboveAt = new double[0];
    private double[] windowAboveRate = new double[0];
    private double[] windowBelowAt = new double[0];
    private double[] windowBelowRate = new double[0];
    /** The epochs narrowed since their thresholds were computed (indexed as the arrays), above and below. */
    private boolean[] staleAbove = new boolean[0];
    private boolean[] staleBelow = new boolean[0];
    private boolean anyStaleAbove;
    private boolean anyStaleBelow;

    /** Forgets the thresholds (a corridor changed): no pair passes until {@link #build}. */
    void clear() {
        from = 1;
        to = 0;
        forget();
    }

    private void forget() {
        Arrays.fill(staleAbove, false);
        Arrays.fill(staleBelow, false);
        anyStaleAbove = false;
        anyStaleBelow = false;
    }

    /**
     * How far the next interval reaches, the link having seen {@code pairs} pairs so far: halved while the last
     * interval held more than {@value #MANY_PAIRS} pairs, doubled while fewer than {@value #FEW_PAIRS}, within
     * [{@value #MIN_REACH} ns, 1 s].
     */
    long reach(long pairs) {
        long seen = pairs - pairsAtBuild;
        pairsAtBuild = pairs;
        reach = seen < FEW_PAIRS ? Math.min(2 * reach, MAX_REACH)
                : seen > MANY_PAIRS ? Math.max(reach / 2, MIN_REACH) : reach;
        return reach;
    }

    boolean covers(long x) {
        return x >= from && x <= to;
    }

    /** Whether the pair's point, y already corrected by the minimum delay, is redundant in every epoch. */
    boolean redundant(boolean aToB, long x, long y) {
        long rise = y - refY;
        if (((y ^ refY) & (y ^ rise)) < 0) {
            return false;
        }
        double dx = (double) (x - from);
        double dy = (double) rise;
        return aToB ? dy >= aboveAt + aboveRate * dx + TOLERANCE_NS : dy <= belowAt + belowRate * dx - TOLERANCE_NS;
    }

    /** Whether the pair is redundant in both epochs of window i; the filter must cover x. */
    boolean redundantIn(int i, boolean aToB, long x, long y) {
        long rise = y - refY;
        if (((y ^ refY) & (y ^ rise)) < 0) {
            return false;
        }
        double dx = (double) (x - from);
        return aToB ? (double) rise >= windowAboveAt[i] + windowAboveRate[i] * dx + TOLERANCE_NS
                : (double) rise <= windowBelowAt[i] + windowBelowRate[i] * dx - TOLERANCE_NS;
    }

    /**
     * The thresholds over [from, to], an interval inside every epoch's range or before a newer epoch's start (which
     * then does not count): T(from), T(to) and the chord between them, NaN (nothing passes) when a side of some
     * epoch is open.
     */
    void build(Window[] windows, long from, long to, long refY) {
        this.from = from;
        this.to = to;
        this.refY = refY;
        int n = windows.length;
        if (windowAboveAt.length != n) {
            aboveFrom = new double[2 * n];
            aboveTo = new double[2 * n];
            belowFrom = new double[2 * n];
            belowTo = new double[2 * n];
            windowAboveAt = new double[n];
            windowAboveRate = new double[n];
            windowBelowAt = new double[n];
            windowBelowRate = new double[n];
            staleAbove = new boolean[2 * n];
            staleBelow = new boolean[2 * n];
        }
        forget();
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 2; k++) {
                epoch(windows[i], i, k, true);
                epoch(windows[i], i, k, false);
            }
            window(i, true);
            window(i, false);
        }
        combine(true);
        combine(false);
    }

    /** Marks the epochs of window i a pair narrowed (bit 1 the older, bit 2 the newer) on the pair's side. */
    void narrowed(int i, int epochs, boolean aToB) {
        boolean[] stale = aToB ? staleAbove : staleBelow;
        stale[2 * i] |= (epochs & 1) != 0;
        stale[2 * i + 1] |= (epochs & 2) != 0;
        if (aToB) {
            anyStaleAbove = true;
        } else {
            anyStaleBelow = true;
        }
    }

    /**
     * Sharpens the thresholds of the marked epochs on one side, over the same interval, with the windows' and the
     * link's chords on that side; whether any was marked. The other side only became more conservative.
     */
    boolean refresh(Window[] windows, boolean aToB) {
        if (!(aToB ? anyStaleAbove : anyStaleBelow)) {
            return false;
        }
        boolean[] stale = aToB ? staleAbove : staleBelow;
        for (int i = 0; i < windows.length; i++) {
            if (!stale[2 * i] && !stale[2 * i + 1]) {
                continue;
            }
            for (int k = 0; k < 2; k++) {
                if (stale[2 * i + k]) {
                    epoch(windows[i], i, k, aToB);
                    stale[2 * i + k] = false;
                }
            }
            window(i, aToB);
        }
        combine(aToB);
        if (aToB) {
            anyStaleAbove = false;
        } else {
            anyStaleBelow = false;
        }
        return true;
    }

    /** Epoch k of window i (0 the older, 1 the newer) on one side: U − ε above, L + ε below, at from and to. */
    private void epoch(Window w, int i, int k, boolean above) {
        int e = 2 * i + k;
        Corridor c = k == 0 ? w.older() : w.newer();
        if (c == null || (k == 1 && w.newerFrom() > to)) {
            (above ? aboveFrom : belowFrom)[e] = above ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            (above ? aboveTo : belowTo)[e] = above ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            return;
        }
        long start = k == 0 ? w.olderStart() : w.newerStart();
        if (above) {
            aboveFrom[e] = c.upperOffset(from, refY) - w.outward(from, start);
            aboveTo[e] = c.upperOffset(to, refY) - w.outward(to, start);
        } else {
            belowFrom[e] = c.lowerOffset(from, refY) + w.outward(from, start);
            belowTo[e] = c.lowerOffset(to, refY) + w.outward(to, start);
        }
    }

    /** Window i's chord on one side, through the larger of its epochs' thresholds (the smaller below). */
    private void window(int i, boolean above) {
        double span = Math.max(1, (double) (to - from));
        if (above) {
            double f = Math.max(aboveFrom[2 * i], aboveFrom[2 * i + 1]);
            double t = Math.max(aboveTo[2 * i], aboveTo[2 * i + 1]);
            windowAboveAt[i] = within(f) && within(t) ? f : Double.NaN;
            windowAboveRate[i] = (t - f) / span;
        } else {
            double f = Math.min(belowFrom[2 * i], belowFrom[2 * i + 1]);
            double t = Math.min(belowTo[2 * i], belowTo[2 * i + 1]);
            windowBelowAt[i] = within(f) && within(t) ? f : Double.NaN;
            windowBelowRate[i] = (t - f) / span;
        }
    }

    /**
     * The link's chord on one side from the windows' (the maximum of chords at both ends is the chord of the
     * maxima); a NaN propagates through max and min: then nothing passes.
     */
    private void combine(boolean above) {
        double span = Math.max(1, (double) (to - from));
        double f = above ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        double t = f;
        for (int i = 0; i < windowAboveAt.length; i++) {
            double at = above ? windowAboveAt[i] : windowBelowAt[i];
            double rate = above ? windowAboveRate[i] : windowBelowRate[i];
            f = above ? Math.max(f, at) : Math.min(f, at);
            t = above ? Math.max(t, at + rate * span) : Math.min(t, at + rate * span);
        }
        if (above) {
            aboveAt = f;
            aboveRate = (t - f) / span;
        } else {
            belowAt = f;
            belowRate = (t - f) / span;
        }
    }

    private static boolean within(double v) {
        return Math.abs(v) < Corridor.RANGE;
    }
}
