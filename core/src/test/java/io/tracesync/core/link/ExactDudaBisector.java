package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The reference for {@link DudaEstimator#bisector}: Duda's bisector of L_min and L_max (Poirier 2010 §3) in exact
 * rationals and decimal square roots, as the link computed it before the double-double version, but to 150 digits
 * instead of 60: for slopes of opposite signs s1·w2 + s2·w1 cancels (37 digits for slopes ±1.7e14 that differ in
 * the 15th digit, up to ~115 digits for int64 points), and 60 digits then left too few to judge a double-double.
 *
 * @param slope (s1·w2 + s2·w1) / (w1 + w2) to 150 digits, w = √(1 + s²)
 * @param xs the intersection's abscissa, exact (L_min's x = 0 for parallel lines)
 * @param ys the intersection's ordinate, exact
 */
record ExactDudaBisector(BigDecimal slope, Rational xs, Rational ys) {

    static final MathContext MC = new MathContext(150);

    /** The bisector of the lines, or null where it does not increase. */
    static ExactDudaBisector of(ExactLine min, ExactLine max) {
        Rational m1 = min.slope();
        Rational m2 = max.slope();
        Rational c1 = min.intercept();
        BigDecimal s1 = m1.toBigDecimal(MC);
        if (m1.equals(m2)) {
            return m1.signum() <= 0 ? null : new ExactDudaBisector(s1, Rational.of(0), c1);
        }
        BigDecimal s2 = m2.toBigDecimal(MC);
        BigDecimal w1 = BigDecimal.ONE.add(s1.multiply(s1, MC)).sqrt(MC);
        BigDecimal w2 = BigDecimal.ONE.add(s2.multiply(s2, MC)).sqrt(MC);
        BigDecimal slope = s1.multiply(w2, MC).add(s2.multiply(w1, MC), MC).divide(w1.add(w2, MC), MC);
        if (slope.signum() <= 0) {
            return null;
        }
        Rational xs = c1.subtract(max.intercept()).divide(m2.subtract(m1));
        return new ExactDudaBisector(slope, xs, m1.multiply(xs).add(c1));
    }

    /** The offset of the line of this slope through (xs, ys), to 150 digits. */
    BigDecimal offset() {
        return ys.toBigDecimal(MC).subtract(slope.multiply(xs.toBigDecimal(MC), MC), MC);
    }
}
