package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;

/**
 * The set of clock lines y = m x + c compatible with one link's messages (Poirier 2010 §3, fig. 2): every a-&gt;b
 * point (send_a, recv_b) on or above the line, every b-&gt;a point (recv_a, send_b) on or below it. It is held as
 * the two half hulls between the contacts of L_max = line(lower[0], upper[last]) and
 * L_min = line(upper[0], lower[last]), so that a pair is classified by one exact orientation test in the common
 * case and stored only if it narrows the corridor ([Jabbarifar 2013, §3.6.4, Algorithms 2-3], extended to pairs
 * arriving in any x order).
 *
 * <p>The upper envelope of the corridor at time t (the largest y any compatible line reaches, Poirier's LP 6) is
 * the upper hull chain inside its x-range and L_min / L_max beyond it; the lower envelope likewise. A new a-&gt;b
 * point is redundant iff it is on or above the upper envelope, infeasible iff it is strictly below the lower
 * envelope; the b-&gt;a case mirrors it.
 */
final class Corridor {

    /** Offsets beyond this many ns make {@link #upperOffset} and {@link #lowerOffset} NaN (and the filter pass). */
    static final double RANGE = 0x1p50;

    final HalfHull upper = new HalfHull(+1);
    final HalfHull lower = new HalfHull(-1);
    boolean failed;

    PairEffect add(boolean aToB, long x, long y) {
        HalfHull own = aToB ? upper : lower;
        HalfHull other = aToB ? lower : upper;
        if (envelope(own, other, x, y) >= 0) {
            return PairEffect.REDUNDANT;
        }
        if (envelope(other, own, x, y) > 0) {
            failed = true;
            return PairEffect.FAILED;
        }
        own.insert(x, y);
        contact(upper, lower);
        contact(lower, upper);
        return PairEffect.NARROWED;
    }

    /**
     * Where p lies relative to hull's side of the corridor: positive outside it, zero on it, negative inside;
     * an open side (no bounding line yet) has every point inside.
     */
    private static int envelope(HalfHull hull, HalfHull other, long px, long py) {
        if (hull.isEmpty()) {
            return -1;
        }
        int last = hull.last();
        if (px > hull.x(last)) {
            return rightBounded(hull, other)
                    ? hull.turn(other.x(0), other.y(0), hull.x(last), hull.y(last), px, py) : -1;
        }
        if (px < hull.x(0)) {
            return rightBounded(other, hull)
                    ? hull.turn(hull.x(0), hull.y(0), other.x(other.last()), other.y(other.last()), px, py) : -1;
        }
        return hull.compareInside(px, py);
    }

    /** Whether hull's right contact line, line(other[0], hull[last]), exists. */
    private static boolean rightBounded(HalfHull hull, HalfHull other) {
        return !hull.isEmpty() && !other.isEmpty() && other.x(0) < hull.x(hull.last());
    }

    /**
     * Walks the right contact line of {@code hull} (L_max for the upper hull, L_min for the lower) inwards from
     * the chain ends to the pair of mutually supporting vertices, and drops what lies beyond ([Jabbarifar 2013,
     * Algorithm 3], Adjust-bounds). Every step removes a vertex for good, so the walk is O(1) amortized per stored
     * pair.
     */
    private static void contact(HalfHull hull, HalfHull other) {
        if (!rightBounded(hull, other)) {
            return;
        }
        int i = hull.last();
        int j = 0;
        while (true) {
            long ox = other.x(j);
            long oy = other.y(j);
            long hx = hull.x(i);
            long hy = hull.y(i);
            if (i > 0 && hull.x(i - 1) > ox && hull.turn(ox, oy, hx, hy, hull.x(i - 1), hull.y(i - 1)) <= 0) {
                i--;
            } else if (j < other.last() && other.x(j + 1) < hx
                    && hull.turn(ox, oy, hx, hy, other.x(j + 1), other.y(j + 1)) >= 0) {
                j++;
            } else {
                break;
            }
        }
        hull.removeRange(i + 1, hull.size);
        other.removeRange(0, j);
    }

    LinkQuality quality() {
        return failed ? LinkQuality.FAIL : qualityBeforeFailure();
    }

    /** The quality of the corridor held, which after a failure is the last good one. */
    LinkQuality qualityBeforeFailure() {
        if (upper.isEmpty() && lower.isEmpty()) {
            return LinkQuality.ABSENT;
        }
        if (upper.isEmpty() || lower.isEmpty()) {
            return LinkQuality.INCOMPLETE;
        }
        return rightBounded(upper, lower) && rightBounded(lower, upper)
                ? LinkQuality.ACCURATE : LinkQuality.APPROXIMATE;
    }

    /** L_max, the compatible line of largest slope, or null while unbounded. */
    ExactLine maxLine() {
        return rightBounded(upper, lower)
                ? new ExactLine(lower.x(0), lower.y(0), upper.x(upper.last()), upper.y(upper.last())) : null;
    }

    /** L_min, the compatible line of smallest slope, or null while unbounded. */
    ExactLine minLine() {
        return rightBounded(lower, upper)
                ? new ExactLine(upper.x(0), upper.y(0), lower.x(lower.last()), lower.y(lower.last())) : null;
    }

    /** Largest y at x = t over all compatible lines (Poirier LP 6, maximized), or null if unbounded. */
    Rational upperAt(long t) {
        return envelopeValue(upper, lower, t);
    }

    /** Smallest y at x = t over all compatible lines (LP 6, minimized), or null if unbounded. */
    Rational lowerAt(long t) {
        return envelopeValue(lower, upper, t);
    }

    private static Rational envelopeValue(HalfHull hull, HalfHull other, long t) {
        if (hull.isEmpty()) {
            return null;
        }
        int last = hull.last();
        if (t > hull.x(last)) {
            return rightBounded(hull, other)
                    ? new ExactLine(other.x(0), other.y(0), hull.x(last), hull.y(last)).valueAt(t) : null;
        }
        if (t < hull.x(0)) {
            return rightBounded(other, hull)
                    ? new ExactLine(hull.x(0), hull.y(0), other.x(other.last()), other.y(other.last())).valueAt(t)
                    : null;
        }
        int k = hull.floorIndex(t);
        return hull.x(k) == t ? Rational.of(hull.y(k))
                : new ExactLine(hull.x(k), hull.y(k), hull.x(k + 1), hull.y(k + 1)).valueAt(t);
    }

    /**
     * upperAt(t) − lowerAt(t) in double arithmetic from the hull vertices, NaN while a side is unbounded: the
     * corridor's height at t, to compare windows by. Not exact, but a function of the vertices and t alone.
     */
    double heightAt(long t) {
        if (upper.isEmpty() || lower.isEmpty()) {
            return Double.NaN;
        }
        long ref = lower.y(0);
        return envelopeOffset(upper, lower, t, ref, false) - envelopeOffset(lower, upper, t, ref, false);
    }

    /**
     * upperAt(t) − ref within 2 ns, NaN if unbounded or if an offset it adds reaches 2^50 ns (where the doubles'
     * error would grow).
     */
    double upperOffset(long t, long ref) {
        return envelopeOffset(upper, lower, t, ref, true);
    }

    /** lowerAt(t) − ref within 2 ns, NaN as {@link #upperOffset}. */
    double lowerOffset(long t, long ref) {
        return envelopeOffset(lower, upper, t, ref, true);
    }

    /** envelopeValue(hull, other, t) − ref in doubles; NaN if unbounded (or, if bounded, beyond 2^50 ns). */
    private static double envelopeOffset(HalfHull hull, HalfHull other, long t, long ref, boolean bounded) {
        if (hull.isEmpty()) {
            return Double.NaN;
        }
        int last = hull.last();
        if (t > hull.x(last)) {
            return rightBounded(hull, other)
                    ? lineOffset(other.x(0), other.y(0), hull.x(last), hull.y(last), t, ref, bounded) : Double.NaN;
        }
        if (t < hull.x(0)) {
            return rightBounded(other, hull) ? lineOffset(hull.x(0), hull.y(0), other.x(other.last()),
                    other.y(other.last()), t, ref, bounded) : Double.NaN;
        }
        int k = hull.floorIndex(t);
        return hull.x(k) == t ? lineOffset(t, hull.y(k), t, hull.y(k), t, ref, bounded)
                : lineOffset(hull.x(k), hull.y(k), hull.x(k + 1), hull.y(k + 1), t, ref, bounded);
    }

    private static double lineOffset(long x1, long y1, long x2, long y2, long t, long ref, boolean bounded) {
        long rise = y1 - ref;
        long run = t - x1;
        long dy = y2 - y1;
        long dx = x2 - x1;
        if (bounded && !(small(y1, ref, rise) && small(t, x1, run) && small(y2, y1, dy) && small(x2, x1, dx))) {
            return Double.NaN;
        }
        if (run == 0) {
            return (double) rise;
        }
        return (double) rise + (double) dy * (double) run / (double) dx;
    }

    /** Whether a − b = diff did not overflow and lies within ±2^50. */
    private static boolean small(long a, long b, long diff) {
        return ((a ^ b) & (a ^ diff)) >= 0 && Math.abs((double) diff) < RANGE;
    }

    int hullPoints() {
        return upper.size + lower.size;
    }
}
