package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The conversion line a link reports. ACCURATE: Duda's estimator, the bisector of the angle between L_min and
 * L_max through their intersection (Poirier 2010 §3). Built from unit direction vectors, it depends on angles
 * only, so swapping a and b (reflecting the plane in y = x) yields the same geometric line. Computed exactly in
 * rationals and with 60-digit square roots, then held as a double-double map.
 */
final class DudaEstimator {

    private static final MathContext MC = new MathContext(60);

    private DudaEstimator() {
    }

    /** What the bisector needs of one line: a function of the line alone, kept by a link while the line stays. */
    record Side(ExactLine line, Rational slope, Rational intercept, BigDecimal s, BigDecimal w) {

        static Side of(ExactLine line) {
            Rational m = line.slope();
            BigDecimal s = m.toBigDecimal(MC);
            return new Side(line, m, line.intercept(), s, BigDecimal.ONE.add(s.multiply(s, MC)).sqrt(MC));
        }
    }

    /** Duda's bisector, or null if it does not increase (bad data: clocks never run backwards). */
    static ClockMap bisector(Side min, Side max) {
        Rational m1 = min.slope();
        Rational m2 = max.slope();
        Rational c1 = min.intercept();
        if (m1.equals(m2)) {
            return m1.signum() <= 0 ? null
                    : ClockMap.of(DoubleDouble.of(min.s()), DoubleDouble.of(c1.toBigDecimal(MC)));
        }
        BigDecimal s1 = min.s();
        BigDecimal s2 = max.s();
        BigDecimal w1 = min.w();
        BigDecimal w2 = max.w();
        BigDecimal slope = s1.multiply(w2, MC).add(s2.multiply(w1, MC), MC).divide(w1.add(w2, MC), MC);
        if (slope.signum() <= 0) {
            return null;
        }
        // Intersection of the two lines, exactly: x* = (c1 - c2) / (m2 - m1), y* = m1 x* + c1.
        Rational xs = c1.subtract(max.intercept()).divide(m2.subtract(m1));
        Rational ys = m1.multiply(xs).add(c1);
        BigDecimal offset = ys.toBigDecimal(MC).subtract(slope.multiply(xs.toBigDecimal(MC), MC), MC);
        return ClockMap.of(DoubleDouble.of(slope), DoubleDouble.of(offset));
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
