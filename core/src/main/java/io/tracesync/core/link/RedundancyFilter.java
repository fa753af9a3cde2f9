package io.tracesync.core.link;

/**
 * A test in a few floating-point operations that a pair is redundant in every epoch of every window of a link, so
 * that the usual pair — far from the clock line — costs one comparison instead of an exact test per epoch.
 *
 * <p>An a-&gt;b point (x, y) is redundant in an epoch iff y + ε(x) ≥ U(x), where U, the corridor's upper envelope,
 * is convex (the largest value of the compatible lines) and ε, the clock model's allowance, is concave; so the
 * threshold U − ε is convex, and so is its maximum T over the epochs. Over an interval [from, to] of x, T lies
 * below its chord through T(from) and T(to): a point above the chord by more than the doubles' error is redundant
 * everywhere. The b-&gt;a side mirrors it with the concave lower envelope plus ε. The filter is exact in effect: a
 * pair it passes would have been REDUNDANT in every epoch, so the link's state does not depend on it.
 */
final class RedundancyFilter {

    /** Above every rounding error of the doubles below while all offsets stay within {@link #RANGE}. */
    private static final double TOLERANCE_NS = 8;
    private static final double RANGE = 0x1p50;

    private long from = 1;
    private long to = 0;
    private long refY;
    private double aboveAt;
    private double aboveRate;
    private double belowAt;
    private double belowRate;

    /** Forgets the thresholds (a corridor changed): no pair passes until {@link #build}. */
    void clear() {
        from = 1;
        to = 0;
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

    /**
     * The thresholds over [from, to], an interval inside every epoch's range: T(from), T(to) and the chord between
     * them, NaN (nothing passes) when a side of some epoch is open.
     */
    void build(Window[] windows, long from, long to, long refY) {
        this.from = from;
        this.to = to;
        this.refY = refY;
        double aboveFrom = Double.NEGATIVE_INFINITY;
        double aboveTo = Double.NEGATIVE_INFINITY;
        double belowFrom = Double.POSITIVE_INFINITY;
        double belowTo = Double.POSITIVE_INFINITY;
        for (Window w : windows) {
            for (int k = 0; k < 2; k++) {
                Corridor c = k == 0 ? w.older : w.newer;
                if (c == null) {
                    continue;
                }
                long start = k == 0 ? w.olderStart : w.newerStart;
                aboveFrom = Math.max(aboveFrom, c.upperOffset(from, refY) - w.allowance(from, start));
                aboveTo = Math.max(aboveTo, c.upperOffset(to, refY) - w.allowance(to, start));
                belowFrom = Math.min(belowFrom, c.lowerOffset(from, refY) + w.allowance(from, start));
                belowTo = Math.min(belowTo, c.lowerOffset(to, refY) + w.allowance(to, start));
            }
        }
        double span = Math.max(1, (double) (to - from));
        aboveAt = within(aboveFrom) && within(aboveTo) ? aboveFrom : Double.NaN;
        aboveRate = (aboveTo - aboveFrom) / span;
        belowAt = within(belowFrom) && within(belowTo) ? belowFrom : Double.NaN;
        belowRate = (belowTo - belowFrom) / span;
    }

    private static boolean within(double v) {
        return Math.abs(v) < RANGE;
    }
}
