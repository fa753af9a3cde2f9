package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The double-double bisector against {@link ExactDudaBisector}: the same decision (a map or null) always, and the
 * same map to {@link #TOLERANCE} relative — in the slope, of the slope itself; at the exact intersection abscissa
 * x*, of M = (1 + |slope| + |s_min|)·(|x1| + |x2| + |x*|) + |y1| + |y2| over L_min's points, the magnitudes the
 * offset is computed from.
 */
class DudaEstimatorTest {

    /** What the double-double computation is held to (its own error is about 50u² = 6e-31). */
    static final double TOLERANCE = 1e-29;
    private static final MathContext MC = ExactDudaBisector.MC;

    @Property(tries = 3000)
    void agreesWithTheExactBisectorOnLinesNearSlopeOne(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        crossingLines(r, 1 + (r.nextDouble() * 2 - 1) * 1e-3, Math.pow(10, -12 + 11 * r.nextDouble()));
    }

    @Property(tries = 3000)
    void agreesWithTheExactBisectorOnWiderSlopes(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        crossingLines(r, Math.pow(10, -3 + 6 * r.nextDouble()), Math.pow(10, -12 + 12 * r.nextDouble()));
    }

    @Property(tries = 3000)
    void agreesWithTheExactBisectorOnAnyLines(@ForAll long x1, @ForAll long y1, @ForAll long x2, @ForAll long y2,
            @ForAll long u1, @ForAll long v1, @ForAll long u2, @ForAll long v2) {
        if (x1 != x2 && u1 != u2) {
            assertAgrees(new ExactLine(x1, y1, x2, y2), new ExactLine(u1, v1, u2, v2));
        }
    }

    /** Slopes of opposite signs near −s1 = s2, where the bisector's slope crosses 0: the decision is exact. */
    @Property(tries = 3000)
    void decidesExactlyWhetherTheBisectorIncreases(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long dx = 1 + r.nextLong(1L << 40);
        long dy = r.nextLong(1L << 40) - (1L << 39);
        long k = 1 + r.nextLong(1 << 20);
        long x = r.nextLong(1L << 61);
        long y = r.nextLong(1L << 61);
        ExactLine one = new ExactLine(x, y, x + dx, y + dy);
        ExactLine other = new ExactLine(x - 5, y + 7, x - 5 + k * dx, y + 7 - k * dy + r.nextInt(3) - 1);
        assertAgrees(one, other);
        assertAgrees(other, one);
    }

    @Test
    void oppositeSlopesHaveNoIncreasingBisector() {
        assertNull(bisector(new ExactLine(0, 0, 1, 1), new ExactLine(0, 5, 2, 3)));
        assertNull(bisector(new ExactLine(0, 0, 1, -1), new ExactLine(0, 5, 2, 5)));
        // 1 and −(1 − 10^-18): the bisector barely increases.
        assertAgrees(new ExactLine(0, 0, 1, 1), new ExactLine(0, 0, 1_000_000_000_000_000_000L,
                -999_999_999_999_999_999L));
    }

    @Test
    void parallelLinesGiveTheMinLine() {
        assertAgrees(new ExactLine(10, 3, 40, 23), new ExactLine(-7, 9, 2, 15));
        assertNull(bisector(new ExactLine(0, 3, 4, 3), new ExactLine(1, 9, 2, 9)));
    }

    /** Every pair of a simulated link: the link's estimate against the reference on its L_min and L_max. */
    @Property(tries = 40)
    void agreesWithTheExactBisectorOnSimulatedLinks(@ForAll long seed) {
        for (Scenarios.Shape shape : new Scenarios.Shape[] {Scenarios.Shape.REALISTIC, Scenarios.Shape.HUGE}) {
            ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON);
            for (long[] p : Scenarios.generate(shape, seed, 120)) {
                if (p[0] == 1) {
                    link.addAtoB(p[1], p[2]);
                } else {
                    link.addBtoA(p[2], p[1]);
                }
                if (link.quality() == LinkQuality.ACCURATE) {
                    assertAgrees(link.minLine(), link.maxLine(), link.estimate());
                }
            }
        }
    }

    @Property(tries = 3000)
    void slopeBelowIsAtMostTheSlopeAndAtMostOneUlpFromItsRounding(@ForAll long x1, @ForAll long y1,
            @ForAll long x2, @ForAll long y2) {
        if (x1 == x2) {
            return;
        }
        ExactLine line = new ExactLine(x1, y1, x2, y2);
        double below = DudaEstimator.Side.of(line).slopeBelow();
        Rational m = line.slope();
        assertTrue(rational(new BigDecimal(below)).compareTo(m) < 0, () -> below + " not below " + m);
        double nearest = m.toBigDecimal(MC).doubleValue();
        assertTrue(below >= Math.nextDown(Math.nextDown(nearest)), () -> below + " too far below " + m);
    }

    @Property(tries = 3000)
    void slopeDifferenceIsExactInSignAndNearInValue(@ForAll long x1, @ForAll long y1, @ForAll long x2,
            @ForAll long y2, @ForAll long u1, @ForAll long v1, @ForAll long u2, @ForAll long v2) {
        if (x1 == x2 || u1 == u2) {
            return;
        }
        ExactLine a = new ExactLine(x1, y1, x2, y2);
        ExactLine b = new ExactLine(u1, v1, u2, v2);
        BigDecimal exact = a.slope().subtract(b.slope()).toBigDecimal(MC);
        BigDecimal got = DudaEstimator.slopeDifference(DudaEstimator.Side.of(a), DudaEstimator.Side.of(b))
                .toBigDecimal();
        assertEquals(exact.signum(), got.signum());
        assertTrue(got.subtract(exact).abs().compareTo(exact.abs().multiply(BigDecimal.valueOf(TOLERANCE))) <= 0,
                () -> got + " vs " + exact);
    }

    @Test
    void slopeDifferenceOfParallelLinesIsZero() {
        assertEquals(0, DudaEstimator.slopeDifference(DudaEstimator.Side.of(new ExactLine(10, 3, 40, 23)),
                DudaEstimator.Side.of(new ExactLine(-7, 9, 2, 15))).signum());
    }

    private static BigDecimal abs(long v) {
        return BigDecimal.valueOf(v).abs();
    }

    private static Rational rational(BigDecimal d) {
        return d.scale() >= 0 ? Rational.of(d.unscaledValue(), BigInteger.TEN.pow(d.scale()))
                : Rational.of(d.unscaledValue().multiply(BigInteger.TEN.pow(-d.scale())), BigInteger.ONE);
    }

    private static void crossingLines(SplittableRandom r, double slope, double spread) {
        long x = r.nextLong(1L << 62) - (1L << 61);
        long y = r.nextLong(1L << 62) - (1L << 61);
        ExactLine min = lineThrough(r, x, y, slope * (1 - spread / 2));
        ExactLine max = lineThrough(r, x, y, slope * (1 + spread / 2));
        assertAgrees(min, max);
    }

    /** A line of about the given slope through integer points around (x, y), of a length from 1 µs to 10^15 ns. */
    private static ExactLine lineThrough(SplittableRandom r, long x, long y, double slope) {
        long length = (long) Math.pow(10, 3 + 12 * r.nextDouble());
        long xa = x - (long) (length * r.nextDouble());
        long xb = xa + length;
        return new ExactLine(xa, y + Math.round(slope * (xa - x)), xb, y + Math.round(slope * (xb - x)));
    }

    private static ClockMap bisector(ExactLine min, ExactLine max) {
        return DudaEstimator.bisector(DudaEstimator.Side.of(min), DudaEstimator.Side.of(max));
    }

    private static void assertAgrees(ExactLine min, ExactLine max) {
        ClockMap c = bisector(min, max);
        assertAgrees(min, max, c);
        assertEquals(c != null, DudaEstimator.increases(min, max), () -> "increases(" + min + ", " + max + ")");
    }

    static void assertAgrees(ExactLine min, ExactLine max, ClockMap c) {
        ExactDudaBisector exact = ExactDudaBisector.of(min, max);
        if (exact == null) {
            assertNull(c, () -> "the exact bisector of " + min + ", " + max + " does not increase; got " + c);
            return;
        }
        assertNotNull(c, () -> "no map for " + min + ", " + max + "; exact slope " + exact.slope());
        BigDecimal s1 = min.slope().toBigDecimal(MC);
        BigDecimal slopeError = c.slope().toBigDecimal().subtract(exact.slope()).abs();
        assertTrue(slopeError.compareTo(exact.slope().multiply(BigDecimal.valueOf(TOLERANCE))) <= 0,
                () -> "slope " + c.slope() + " vs " + exact.slope() + " for " + min + ", " + max);
        BigDecimal xs = exact.xs().toBigDecimal(MC);
        BigDecimal at = c.slope().toBigDecimal().multiply(xs).add(c.offset().toBigDecimal());
        BigDecimal valueError = at.subtract(exact.ys().toBigDecimal(MC)).abs();
        BigDecimal magnitude = BigDecimal.ONE.add(exact.slope()).add(s1.abs())
                .multiply(abs(min.x1()).add(abs(min.x2())).add(xs.abs())).add(abs(min.y1())).add(abs(min.y2()));
        assertTrue(valueError.compareTo(magnitude.multiply(BigDecimal.valueOf(TOLERANCE))) <= 0,
                () -> "off by " + valueError + " at the intersection " + xs + " for " + min + ", " + max);
    }
}
