package io.tracesync.core.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class DoubleDoubleTest {

    private static final double U2 = 0x1p-106; // u² for u = 2^-53
    private static final MathContext WIDE = new MathContext(120);

    // ---- of(long), roundToLong

    @Test
    void ofLongIsExactAtEdges() {
        List<Long> values = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L));
        for (int k = 0; k < 63; k++) {
            for (long d = -600; d <= 600; d += d > -3 && d < 3 ? 1 : 97) {
                values.add((1L << k) + d);
                values.add(-(1L << k) + d);
                values.add(Long.MAX_VALUE - (1L << k) + d);
                values.add(Long.MIN_VALUE + (1L << k) + d);
            }
        }
        values.forEach(DoubleDoubleTest::assertExactLong);
    }

    @Property(tries = 20_000)
    void ofLongIsExact(@ForAll long v) {
        assertExactLong(v);
    }

    @Property(tries = 5_000)
    void ofLongIsExactNearTheEnds(@ForAll("nearEnds") long v) {
        assertExactLong(v);
    }

    @Provide
    Arbitrary<Long> nearEnds() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(Long.MAX_VALUE - 5000, Long.MAX_VALUE),
                Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + 5000),
                Arbitraries.longs().between((1L << 62) - 5000, (1L << 62) + 5000),
                Arbitraries.longs().between(-(1L << 62) - 5000, -(1L << 62) + 5000));
    }

    private static void assertExactLong(long v) {
        DoubleDouble d = DoubleDouble.of(v);
        assertEquals(0, BigDecimal.valueOf(v).compareTo(d.toBigDecimal()), () -> "of(" + v + ") = " + d);
        assertEquals((double) v, d.hi());
        assertNormalized(d);
        assertEquals(v, d.roundToLong());
    }

    @Property(tries = 20_000)
    void roundToLongIsNearestTiesUp(@ForAll long v, @ForAll("fractions") double f) {
        DoubleDouble x = DoubleDouble.of(v).add(DoubleDouble.of(f));
        BigDecimal expected = x.toBigDecimal().add(new BigDecimal("0.5")).setScale(0, RoundingMode.FLOOR);
        if (expected.toBigInteger().bitLength() < 64) {
            assertEquals(expected.longValueExact(), x.roundToLong(), () -> x.toBigDecimal().toPlainString());
        } else {
            assertThrows(ArithmeticException.class, x::roundToLong);
        }
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-1.5, 1.5),
                Arbitraries.of(0.5, -0.5, 0.49999999999999994, -0.49999999999999994, 0.5000000000000001,
                        -0.5000000000000001, 1e-300, -1e-300, 0.0));
    }

    @Test
    void roundToLongAtTheLongRangeEnds() {
        DoubleDouble max = DoubleDouble.of(Long.MAX_VALUE);
        DoubleDouble min = DoubleDouble.of(Long.MIN_VALUE);
        assertEquals(Long.MAX_VALUE, max.add(DoubleDouble.of(0.49)).roundToLong());
        assertThrows(ArithmeticException.class, () -> max.add(DoubleDouble.of(0.5)).roundToLong());
        assertEquals(Long.MIN_VALUE, min.add(DoubleDouble.of(-0.5)).roundToLong());
        assertThrows(ArithmeticException.class, () -> min.add(DoubleDouble.of(-0.51)).roundToLong());
        assertThrows(ArithmeticException.class, () -> DoubleDouble.of(0x1p64).roundToLong());
        assertEquals(3, DoubleDouble.of(2.5).roundToLong());
        assertEquals(-2, DoubleDouble.of(-2.5).roundToLong());
        assertEquals(2, DoubleDouble.of(2.5, -0x1p-80).roundToLong());
    }

    // ---- arithmetic against BigDecimal

    @Test
    void arithmeticMeetsTheDoubleWordErrorBounds() {
        SplittableRandom rnd = new SplittableRandom(1);
        double add = 0, sub = 0, mul = 0, div = 0;
        for (int i = 0; i < 200_000; i++) {
            DoubleDouble a = randomDD(rnd, -70, 70, 60);
            DoubleDouble b = switch (i % 4) {
                case 0 -> a.negate().add(randomDD(rnd, -40, 10, 60)); // cancellation in add
                case 1 -> a.add(randomDD(rnd, -40, 10, 60)); // cancellation in subtract
                default -> randomDD(rnd, -70, 70, 60);
            };
            BigDecimal ea = a.toBigDecimal();
            BigDecimal eb = b.toBigDecimal();
            add = Math.max(add, relativeError(a.add(b), ea.add(eb)));
            sub = Math.max(sub, relativeError(a.subtract(b), ea.subtract(eb)));
            mul = Math.max(mul, relativeError(a.multiply(b), ea.multiply(eb)));
            div = Math.max(div, relativeError(a.divide(b), ea.divide(eb, WIDE)));
        }
        System.out.printf("DoubleDouble worst relative errors in u^2: add %.3f, subtract %.3f, multiply %.3f, "
                + "divide %.3f%n", add, sub, mul, div);
        assertTrue(add <= 3 && sub <= 3 && mul <= 5 && div <= 15.01, "bounds exceeded");
    }

    /** |r - exact| / |exact| in units of u², after checking that r is normalized. */
    private static double relativeError(DoubleDouble r, BigDecimal exact) {
        assertNormalized(r);
        if (exact.signum() == 0) {
            assertEquals(DoubleDouble.ZERO, r);
            return 0;
        }
        return r.toBigDecimal().subtract(exact).abs().divide(exact.abs(), MathContext.DECIMAL64).doubleValue() / U2;
    }

    @Test
    void divisionByZeroAndNonFiniteInputsThrow() {
        assertThrows(ArithmeticException.class, () -> DoubleDouble.ONE.divide(DoubleDouble.ZERO));
        assertThrows(ArithmeticException.class, () -> DoubleDouble.of(Double.NaN));
        assertThrows(ArithmeticException.class, () -> DoubleDouble.of(1.0, Double.POSITIVE_INFINITY));
        assertThrows(ArithmeticException.class, () -> DoubleDouble.of(new BigDecimal("1e400")));
    }

    // ---- signum, compareTo, equals

    @Property(tries = 5_000)
    void compareToAndSignumAgreeWithTheExactValues(@ForAll("doubleDoubles") DoubleDouble a,
            @ForAll("doubleDoubles") DoubleDouble c, @ForAll @DoubleRange(min = -2, max = 2) double t) {
        // nudging a value of the top binade by an ulp of lo can overflow: not what this property is about
        Assume.that(t < -1 || Math.abs(a.hi()) < 0x1p1023);
        DoubleDouble b = t < -1 ? c : a.add(DoubleDouble.of(t * Math.ulp(a.lo()))); // often within an ulp of lo
        assertEquals(Integer.signum(a.toBigDecimal().compareTo(b.toBigDecimal())), Integer.signum(a.compareTo(b)));
        assertEquals(a.toBigDecimal().signum(), a.signum());
        assertEquals(a.compareTo(b) == 0, a.equals(b));
    }

    @Test
    void zeroIsCanonical() {
        DoubleDouble z = DoubleDouble.ZERO.negate();
        assertEquals(DoubleDouble.ZERO, z);
        assertEquals(DoubleDouble.ZERO.hashCode(), z.hashCode());
        assertEquals(0, Double.compare(0.0, z.hi()));
        assertEquals(DoubleDouble.ZERO, DoubleDouble.of(1.5).subtract(DoubleDouble.of(1.5)));
        assertEquals(0, z.signum());
    }

    // ---- conversions

    @Property(tries = 5_000)
    void ofBigDecimalIsExactOnDoubleDoublesAndNearestOtherwise(@ForAll("doubleDoubles") DoubleDouble x,
            @ForAll @DoubleRange(min = -1, max = 1) double t) {
        assertEquals(x, DoubleDouble.of(x.toBigDecimal()));
        // a value between x and its neighbour-ish: the nearest double-double is within half an ulp of lo
        BigDecimal v = x.toBigDecimal().add(new BigDecimal(t * Math.ulp(x.lo())));
        if (v.abs().compareTo(new BigDecimal(Double.MAX_VALUE)) > 0) {
            // past the largest double, the nearest double-double may need hi = 2^1024: refused, never infinite
            assertThrowsOrFinite(() -> DoubleDouble.of(v));
            return;
        }
        DoubleDouble y = DoubleDouble.of(v);
        assertNormalized(y);
        assertTrue(y.toBigDecimal().subtract(v).abs().compareTo(new BigDecimal(Math.ulp(x.lo()))) <= 0);
    }

    private static void assertThrowsOrFinite(java.util.function.Supplier<DoubleDouble> f) {
        try {
            assertTrue(Double.isFinite(f.get().hi()));
        } catch (ArithmeticException e) {
            assertTrue(e.getMessage().startsWith("beyond the double-double range"), e.getMessage());
        }
    }

    @Test
    void ofBigDecimalRefusesTiesThatRoundPastTheLargestDouble() {
        BigDecimal tie = new BigDecimal(Double.MAX_VALUE).add(new BigDecimal(Math.ulp(Double.MAX_VALUE) / 2));
        assertThrows(ArithmeticException.class, () -> DoubleDouble.of(tie));
        BigDecimal below = new BigDecimal(Double.MAX_VALUE).add(new BigDecimal(Math.ulp(Double.MAX_VALUE) / 4));
        assertEquals(DoubleDouble.of(Double.MAX_VALUE, Math.ulp(Double.MAX_VALUE) / 4), DoubleDouble.of(below));
    }

    @Test
    void toDecimalStringPrintsFortySignificantDigitsPlain() {
        assertEquals("0", DoubleDouble.ZERO.toDecimalString());
        assertEquals("1", DoubleDouble.ONE.toDecimalString());
        assertEquals("-0.375", DoubleDouble.of(-0.375).toDecimalString());
        assertEquals("9223372036854775807", DoubleDouble.of(Long.MAX_VALUE).toDecimalString());
        assertEquals("1180591620717411303424", DoubleDouble.of(0x1p70).toDecimalString());
        // 1 + 2^-60 = 1.000000000000000000867361737988403547205|96...
        assertEquals("1.000000000000000000867361737988403547206",
                DoubleDouble.of(1, 0x1p-60).toDecimalString());
        assertEquals(DoubleDouble.of(1, 0x1p-60).toDecimalString(), DoubleDouble.of(1, 0x1p-60).toString());
    }

    @Property(tries = 20_000)
    void parseInvertsToDecimalString(@ForAll("doubleDoubles") DoubleDouble x) {
        String s = x.toDecimalString();
        assertEquals(x, DoubleDouble.parse(s), s);
    }

    @Property(tries = 10_000)
    void parseInvertsToDecimalStringForDoubles(@ForAll double v) {
        DoubleDouble x = DoubleDouble.of(v);
        assertEquals(x, DoubleDouble.parse(x.toDecimalString()));
    }

    @Property(tries = 5_000)
    void parseIsWithinTwoToTheMinus105Otherwise(@ForAll("gappedDoubleDoubles") DoubleDouble x) {
        BigDecimal back = DoubleDouble.parse(x.toDecimalString()).toBigDecimal();
        BigDecimal bound = x.toBigDecimal().abs().multiply(new BigDecimal(0x1p-105));
        assertTrue(back.subtract(x.toBigDecimal()).abs().compareTo(bound) <= 0);
    }

    @Test
    void parseAcceptsOrdinaryDecimals() {
        assertEquals(DoubleDouble.of(-1.5), DoubleDouble.parse("-1.50"));
        assertEquals(DoubleDouble.of(1500), DoubleDouble.parse("1.5e3"));
        BigDecimal tenth = new BigDecimal("0.1");
        BigDecimal error = DoubleDouble.parse("0.1").toBigDecimal().subtract(tenth).abs();
        assertTrue(error.compareTo(tenth.multiply(new BigDecimal(0x1p-106))) <= 0); // no double-double prints as 0.1
        assertEquals(DoubleDouble.ZERO, DoubleDouble.parse("-0.000"));
    }

    // ---- generators

    /** Double-doubles whose bits span at most 126 (lo == 0, or lo at most 19 bits below ulp(hi)/2). */
    @Provide
    Arbitrary<DoubleDouble> doubleDoubles() {
        return doubleDoublesWithGap(19);
    }

    @Provide
    Arbitrary<DoubleDouble> gappedDoubleDoubles() {
        return doubleDoublesWithGap(900);
    }

    private static Arbitrary<DoubleDouble> doubleDoublesWithGap(int maxGap) {
        Arbitrary<Long> mantissa = Arbitraries.longs().between(0, (1L << 52) - 1);
        Arbitrary<Integer> sign = Arbitraries.of(-1, 1);
        return Combinators.combine(mantissa, Arbitraries.integers().between(-900, 1023), sign, mantissa,
                        Arbitraries.integers().between(-1, maxGap), sign)
                .as((m1, e, s1, m2, gap, s2) -> {
                    double hi = s1 * Math.scalb((double) ((1L << 52) | m1), e - 52);
                    double lo = gap < 0 ? 0 : s2 * Math.scalb((double) ((1L << 52) | m2), e - 106 - gap);
                    return DoubleDouble.of(hi, lo);
                });
    }

    /** hi with exponent in [minExp, maxExp], lo 0 or up to maxGap bits below ulp(hi)/2. */
    private static DoubleDouble randomDD(SplittableRandom rnd, int minExp, int maxExp, int maxGap) {
        double sign = rnd.nextBoolean() ? 1 : -1;
        int e = rnd.nextInt(minExp, maxExp + 1);
        double hi = sign * Math.scalb((double) ((1L << 52) | rnd.nextLong(1L << 52)), e - 52);
        if (rnd.nextInt(8) == 0) {
            return DoubleDouble.of(hi);
        }
        double lo = (rnd.nextBoolean() ? 1 : -1)
                * Math.scalb((double) ((1L << 52) | rnd.nextLong(1L << 52)), e - 106 - rnd.nextInt(maxGap + 1));
        return DoubleDouble.of(hi, lo);
    }

    // ---- sqrt, ofDifferenceOfProducts

    @Property(tries = 20_000)
    void sqrtIsWithin25Over8uSquared(@ForAll("doubleDoubles") DoubleDouble x) {
        Assume.that(x.signum() > 0 && x.hi() > 0x1p-900);
        assertSqrtWithin25Over8uSquared(x);
    }

    /** Just above 1 with lo just below ulp(hi)/2 the error nears its bound; 3u² is exceeded there (found by CI). */
    @Test
    void sqrtNearItsWorstCaseStaysWithin25Over8uSquared() {
        double hi = 0x1.0000000000003p0; // 1 + 3 ulp(1)
        assertTrue(assertSqrtWithin25Over8uSquared(DoubleDouble.of(hi, 0x1.db3d742c2656ap-54)) > 3);
        assertTrue(assertSqrtWithin25Over8uSquared(DoubleDouble.of(hi, 0x1.fffed861a7d52p-54)) > 3.12);
        for (int k = 1; k <= 64; k++) {
            double h = 1 + k * Math.ulp(1.0);
            for (double fraction : new double[] {0.25, 0.4640, 0.49999995, -0.49999995}) {
                assertSqrtWithin25Over8uSquared(DoubleDouble.of(h, fraction * Math.ulp(h)));
            }
        }
    }

    /** Asserts √x within 25/8 u² and normalized; returns the relative error in units of u². */
    private static double assertSqrtWithin25Over8uSquared(DoubleDouble x) {
        DoubleDouble r = x.sqrt();
        BigDecimal exact = x.toBigDecimal().sqrt(WIDE);
        BigDecimal error = r.toBigDecimal().subtract(exact).abs();
        assertTrue(error.compareTo(exact.multiply(BigDecimal.valueOf(25 * U2 / 8))) <= 0,
                () -> "sqrt(" + x + ") = " + r);
        assertNormalized(r);
        return error.divide(exact, MathContext.DECIMAL64).doubleValue() / U2;
    }

    @Test
    void sqrtOfExactSquaresIsExact() {
        for (long v : new long[] {1, 4, 9, 1L << 40, 3_037_000_499L * 3_037_000_499L}) {
            assertEquals(0, DoubleDouble.of(v).sqrt().toBigDecimal().compareTo(BigDecimal.valueOf(v).sqrt(WIDE)));
        }
        assertThrows(ArithmeticException.class, () -> DoubleDouble.ZERO.sqrt());
    }

    @Property(tries = 20_000)
    void differenceOfProductsHasTheExactSignAndIsWithin4uSquared(@ForAll("crossFactors") long p,
            @ForAll("crossFactors") long q, @ForAll("crossFactors") long r, @ForAll("crossFactors") long s) {
        assertDifferenceOfProducts(p, q, r, s);
        assertDifferenceOfProducts(p, q, p, q);
        assertDifferenceOfProducts(p, q, q, p);
        assertDifferenceOfProducts(p, q, p == Long.MAX_VALUE ? p - 1 : p + 1, q);
    }

    @Provide
    Arbitrary<Long> crossFactors() {
        return Arbitraries.oneOf(Arbitraries.longs().between(Long.MIN_VALUE + 1, Long.MAX_VALUE),
                Arbitraries.longs().between(-(1L << 40), 1L << 40), Arbitraries.longs().between(-5, 5),
                Arbitraries.longs().between(Long.MAX_VALUE - 5000, Long.MAX_VALUE - 1),
                Arbitraries.longs().between(Long.MIN_VALUE + 1, Long.MIN_VALUE + 5000));
    }

    private static void assertDifferenceOfProducts(long p, long q, long r, long s) {
        BigDecimal exact = new BigDecimal(BigInteger.valueOf(p).multiply(BigInteger.valueOf(q))
                .subtract(BigInteger.valueOf(r).multiply(BigInteger.valueOf(s))));
        DoubleDouble d = DoubleDouble.ofDifferenceOfProducts(p, q, r, s);
        assertEquals(exact.signum(), d.signum());
        BigDecimal error = d.toBigDecimal().subtract(exact).abs();
        assertTrue(error.compareTo(exact.abs().multiply(BigDecimal.valueOf(4 * U2))) <= 0,
                () -> p + "·" + q + " − " + r + "·" + s + " = " + exact + ", got " + d);
        assertNormalized(d);
    }

    private static void assertNormalized(DoubleDouble d) {
        assertEquals(d.hi(), d.hi() + d.lo(), () -> "not normalized: " + d.hi() + " + " + d.lo());
        assertTrue(Double.compare(d.hi(), -0.0) != 0 && Double.compare(d.lo(), -0.0) != 0, "negative zero");
    }
}
