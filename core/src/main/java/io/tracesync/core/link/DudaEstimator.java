package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * The conversion line a link reports. ACCURATE: Duda's estimator, the bisector of the angle between L_min and
 * L_max through their intersection (Poirier 2010 §3). Built from unit direction vectors, it depends on angles
 * only, so swapping a and b (reflecting the plane in y = x) yields the same geometric line, up to rounding.
 *
 * <p>Computed in double-double from the lines' integer points, deterministically (IEEE operations, FMA and
 * square root only). Poirier's bounds are exact for whatever map the link reports, so rounding here costs no
 * guarantee; it is tiny anyway: nothing cancels (the slope is within about 2^-100 of its exact value relative, the
 * map's value at the intersection within about 2^-100 of the coordinates it is computed from; DudaEstimatorTest
 * holds both to 1e-29 against the exact computation). What decides between a map and none — equal slopes, and
 * whether the bisector increases — is decided exactly, on 128-bit cross products.
 */
final class DudaEstimator {

    private static final MathContext MC = new MathContext(60);

    private DudaEstimator() {
    }

    /**
     * What the bisector needs of one line, a function of the line alone, kept by a link while the line stays: its
     * points with x1 &lt; x2, its slope s = dy/dx and the length w = √(1 + s²) of the direction (1, s).
     */
    record Side(ExactLine line, long x1, long y1, long x2, long y2, DoubleDouble dx, DoubleDouble dy,
            DoubleDouble s, DoubleDouble w) {

        static Side of(ExactLine line) {
            boolean flip = line.x2() < line.x1();
            long x1 = flip ? line.x2() : line.x1();
            long y1 = flip ? line.y2() : line.y1();
            long x2 = flip ? line.x1() : line.x2();
            long y2 = flip ? line.y1() : line.y2();
            DoubleDouble dx = difference(x2, x1);
            DoubleDouble dy = difference(y2, y1);
            DoubleDouble s = dy.divide(dx);
            return new Side(line, x1, y1, x2, y2, dx, dy, s, DoubleDouble.ONE.add(s.multiply(s)).sqrt());
        }

        /** The largest double below the slope (the double-double slope is far closer to it than an ulp). */
        double slopeBelow() {
            return Math.nextDown(s.hi());
        }

        /** The smallest double above the slope. */
        double slopeAbove() {
            return Math.nextUp(s.hi());
        }
    }

    /** Duda's bisector, or null if it does not increase (bad data: clocks never run backwards). */
    static ClockMap bisector(Side min, Side max) {
        // d = dx1·dy2 − dy1·dx2 = dx1·dx2·(s2 − s1): with dx > 0, its sign is that of s2 − s1.
        DoubleDouble d = cross(min.x2, min.x1, max.y2, max.y1, min.y2, min.y1, max.x2, max.x1);
        // The bisector's slope (s1·w2 + s2·w1) / (w1 + w2) has the sign of s1 + s2, hence of e = dy1·dx2 + dy2·dx1:
        // for s1 > 0 > s2, s1·w2 > −s2·w1 ⇔ s1²(1 + s2²) > s2²(1 + s1²) ⇔ s1² > s2².
        DoubleDouble e = cross(min.y2, min.y1, max.x2, max.x1, max.y1, max.y2, min.x2, min.x1);
        if (e.signum() <= 0) {
            return null;
        }
        if (d.signum() == 0) {
            // Parallel: L_min itself, offset (y1·dx − dy·x1) / dx.
            DoubleDouble c = cross(min.y1, 0, min.x2, min.x1, min.y2, min.y1, min.x1, 0).divide(min.dx);
            return ClockMap.of(min.s, c);
        }
        DoubleDouble numerator;
        if (min.dy.signum() * max.dy.signum() >= 0) {
            numerator = min.s.multiply(max.w).add(max.s.multiply(min.w));
        } else {
            // Opposite signs would cancel: s1·w2 + s2·w1 = (s1 + s2)(s1 − s2) / (s1·w2 − s2·w1), whose factors
            // come from the exact cross products (s1 + s2 = e / (dx1·dx2), s1 − s2 = −d / (dx1·dx2)).
            DoubleDouble dx12 = min.dx.multiply(max.dx);
            numerator = e.multiply(d.negate()).divide(dx12.multiply(dx12))
                    .divide(min.s.multiply(max.w).subtract(max.s.multiply(min.w)));
        }
        DoubleDouble slope = numerator.divide(min.w.add(max.w));
        // The intersection is P1 + t·(dx1, dy1) with t = ((P2 − P1) × d2) / (d1 × d2), P1 = min's first point
        // and P2 = max's; the map through it: offset = (y1 − slope·x1) + t·(dy1 − slope·dx1).
        DoubleDouble t = cross(max.x1, min.x1, max.y2, max.y1, max.y1, min.y1, max.x2, max.x1).divide(d);
        DoubleDouble at1 = DoubleDouble.of(min.y1).subtract(slope.multiply(DoubleDouble.of(min.x1)));
        DoubleDouble offset = at1.add(t.multiply(min.dy.subtract(slope.multiply(min.dx))));
        return ClockMap.of(slope, offset);
    }

    /** Whether {@link #bisector} of the two lines is not null: whether s1 + s2 &gt; 0, exactly. */
    static boolean increases(ExactLine min, ExactLine max) {
        // e = dy1·dx2 + dy2·dx1 changes sign with each line's direction: taken as given, then turned rightward
        int turn = (min.x2() > min.x1()) == (max.x2() > max.x1()) ? 1 : -1;
        return turn * cross(min.y2(), min.y1(), max.x2(), max.x1(), max.y1(), max.y2(), min.x2(), min.x1()).signum() > 0;
    }

    /** Whether {@link #bestEffort} is not null: whether the largest compatible slope, if bounded, is positive. */
    static boolean mayIncrease(ExactLine max) {
        return max == null || Long.compare(max.y2(), max.y1()) == Long.compare(max.x2(), max.x1());
    }

    /** s_a − s_b = (dy_a·dx_b − dy_b·dx_a) / (dx_a·dx_b). */
    static DoubleDouble slopeDifference(Side a, Side b) {
        return cross(a.y2, a.y1, b.x2, b.x1, b.y2, b.y1, a.x2, a.x1).divide(a.dx.multiply(b.dx));
    }

    /** (a1 − a0)·(b1 − b0) − (c1 − c0)·(d1 − d0), exact then rounded once (exact sign). */
    static DoubleDouble cross(long a1, long a0, long b1, long b0, long c1, long c0, long d1, long d0) {
        long a = a1 - a0;
        long b = b1 - b0;
        long c = c1 - c0;
        long d = d1 - d0;
        if (fits(a1, a0, a) && fits(b1, b0, b) && fits(c1, c0, c) && fits(d1, d0, d)) {
            return DoubleDouble.ofDifferenceOfProducts(a, b, c, d);
        }
        BigInteger exact = big(a1, a0).multiply(big(b1, b0)).subtract(big(c1, c0).multiply(big(d1, d0)));
        return DoubleDouble.of(new BigDecimal(exact));
    }

    /** x1 − x0 exactly (a difference of longs has at most 65 bits, well within a double-double). */
    private static DoubleDouble difference(long x1, long x0) {
        long d = x1 - x0;
        return fits(x1, x0, d) ? DoubleDouble.of(d) : DoubleDouble.of(new BigDecimal(big(x1, x0)));
    }

    /** d = x1 − x0 did not overflow and is not Long.MIN_VALUE (Hacker's Delight 2-13). */
    private static boolean fits(long x1, long x0, long d) {
        return ((x1 ^ x0) & (x1 ^ d)) >= 0 && d != Long.MIN_VALUE;
    }

    private static BigInteger big(long x1, long x0) {
        return BigInteger.valueOf(x1).subtract(BigInteger.valueOf(x0));
    }

    /**
     * APPROXIMATE best effort: the nominal rate (slope 1) clamped into the slope range that is bounded, and the
     * middle of the offsets compatible with that slope (the symmetric-delay assumption, used only until
     * both slope bounds exist).
     */
    /** Null if the compatible slopes are all non-positive. */
    static ClockMap bestEffort(Corridor corridor, ExactLine min, ExactLine max) {
        Rational m = Rational.of(1);
        if (min != null && m.compareTo(min.slope()) < 0) {
            m = min.slope();
        }
        if (max != null && m.compareTo(max.slope()) > 0) {
            m = max.slope();
        }
        if (m.signum() <= 0) {
            return null;
        }
        Rational cUp = null;
        HalfHull up = corridor.upper;
        for (int i = 0; i < up.size; i++) {
            Rational c = Rational.of(up.y(i)).subtract(m.multiply(Rational.of(up.x(i))));
            cUp = cUp == null || c.compareTo(cUp) < 0 ? c : cUp;
        }
        Rational cLo = null;
        HalfHull lo = corridor.lower;
        for (int i = 0; i < lo.size; i++) {
            Rational c = Rational.of(lo.y(i)).subtract(m.multiply(Rational.of(lo.x(i))));
            cLo = cLo == null || c.compareTo(cLo) > 0 ? c : cLo;
        }
        Rational mid = cUp.add(cLo).divide(Rational.of(2));
        return ClockMap.of(DoubleDouble.of(m.toBigDecimal(MC)), DoubleDouble.of(mid.toBigDecimal(MC)));
    }
}
