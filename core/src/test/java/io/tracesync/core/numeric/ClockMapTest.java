package io.tracesync.core.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Errors are measured against the exact (BigDecimal) value of the maps as held. */
class ClockMapTest {

    private static final double HOUR = 3.6e12; // ns
    private static final long TWO_62 = 1L << 62;
    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final long[] EDGES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -TWO_62 - 1, -TWO_62, -1, 0, 1, TWO_62,
        TWO_62 + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void rejectsNonPositiveSlopes() {
        assertThrows(IllegalArgumentException.class, () -> ClockMap.of(DoubleDouble.ZERO, DoubleDouble.ONE));
        assertThrows(IllegalArgumentException.class, () -> ClockMap.of(DoubleDouble.of(-1e-9), DoubleDouble.ZERO));
        assertThrows(NullPointerException.class, () -> ClockMap.of(DoubleDouble.ONE, null));
    }

    @Test
    void identityMapsEveryLongToItself() {
        for (long x : EDGES) {
            assertEquals(DoubleDouble.of(x), ClockMap.IDENTITY.apply(x));
            assertEquals(x, ClockMap.IDENTITY.applyRounded(x));
        }
    }

    @Test
    void andThenAppliesThisFirst() {
        ClockMap first = ClockMap.of(DoubleDouble.of(2), DoubleDouble.of(3));
        ClockMap second = ClockMap.of(DoubleDouble.of(5), DoubleDouble.of(7));
        assertEquals(ClockMap.of(DoubleDouble.of(10), DoubleDouble.of(22)), first.andThen(second)); // 5(2x+3)+7
        assertEquals(ClockMap.of(DoubleDouble.of(0.5), DoubleDouble.of(-1.5)), first.inverse());
    }

    @Test
    void throughPassesThroughThePoint() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long x0 = randomX(rnd);
            DoubleDouble y0 = randomMap(rnd).apply(x0);
            DoubleDouble slope = slopeNearOne(rnd);
            ClockMap m = ClockMap.through(x0, y0, slope);
            assertEquals(slope, m.slope());
            assertTrue(error(m.apply(x0), y0.toBigDecimal()) < 1e-6);
        }
    }

    @Test
    void equalsHashCodeToString() {
        ClockMap m = ClockMap.of(DoubleDouble.of(1.5), DoubleDouble.of(-2));
        assertEquals(ClockMap.of(DoubleDouble.of(1.5), DoubleDouble.of(-2)), m);
        assertEquals(ClockMap.of(DoubleDouble.of(1.5), DoubleDouble.of(-2)).hashCode(), m.hashCode());
        assertNotEquals(ClockMap.of(DoubleDouble.of(1.5, 0x1p-60), DoubleDouble.of(-2)), m);
        assertEquals("ClockMap[slope=1.5, offset=-2]", m.toString());
    }

    /** (b) one map, the whole long range: apply within 1e-3 ns, applyRounded within 0.5 ns + that. */
    @Test
    void applyIsFarWithinOneNanosecond() {
        SplittableRandom rnd = new SplittableRandom(11);
        double worstApply = 0;
        double worstRounded = 0;
        for (int i = 0; i < 15_000; i++) {
            ClockMap m = randomMap(rnd);
            List<Long> xs = new ArrayList<>();
            for (long x : EDGES) {
                xs.add(x);
            }
            for (int j = 0; j < 10; j++) {
                xs.add(randomX(rnd));
            }
            for (long x : xs) {
                BigDecimal exact = exact(m, BigDecimal.valueOf(x));
                worstApply = Math.max(worstApply, error(m.apply(x), exact));
                BigDecimal nearest = exact.add(HALF).setScale(0, RoundingMode.FLOOR);
                if (nearest.toBigInteger().bitLength() < 64) {
                    worstRounded = Math.max(worstRounded, error(DoubleDouble.of(m.applyRounded(x)), exact));
                } else {
                    assertThrows(ArithmeticException.class, () -> m.applyRounded(x));
                }
            }
        }
        System.out.printf("ClockMap.apply worst error %.3e ns; applyRounded worst |result - exact| %.12f ns%n",
                worstApply, worstRounded);
        assertTrue(worstApply < 1e-3, "apply error " + worstApply);
        assertTrue(worstRounded <= 0.5 + worstApply, "applyRounded error " + worstRounded);
    }

    /** (c) 200 maps and inverses composed in double-double vs the exact composition of the same maps. */
    @Test
    void compositionOfTwoHundredMapsStaysWithinOneNanosecond() {
        SplittableRandom rnd = new SplittableRandom(13);
        double worstComposed = 0;
        double worstChained = 0;
        for (int chain = 0; chain < 12; chain++) {
            List<ClockMap> maps = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                ClockMap m = randomMap(rnd);
                maps.add(rnd.nextBoolean() ? m : m.inverse());
            }
            ClockMap composed = ClockMap.IDENTITY;
            BigDecimal slope = BigDecimal.ONE;
            BigDecimal offset = BigDecimal.ZERO;
            for (ClockMap m : maps) {
                composed = composed.andThen(m);
                slope = m.slope().toBigDecimal().multiply(slope);
                offset = exact(m, offset);
            }
            for (int j = 0; j < 50; j++) {
                long x = j < 3 ? (j - 1) * TWO_62 : rnd.nextLong(-TWO_62, TWO_62 + 1);
                BigDecimal exact = slope.multiply(BigDecimal.valueOf(x)).add(offset);
                worstComposed = Math.max(worstComposed, error(composed.apply(x), exact));
                DoubleDouble y = DoubleDouble.of(x);
                for (ClockMap m : maps) {
                    y = m.apply(y);
                }
                worstChained = Math.max(worstChained, error(y, exact));
            }
        }
        System.out.printf("200-map composition worst error %.3e ns (composed map), %.3e ns (maps applied in turn)%n",
                worstComposed, worstChained);
        assertTrue(worstComposed < 1, "composed error " + worstComposed);
        assertTrue(worstChained < 1, "chained error " + worstChained);
    }

    /** (d) inverse∘map is the identity within 1 ns over the whole long range. */
    @Test
    void inverseUndoesTheMap() {
        SplittableRandom rnd = new SplittableRandom(17);
        double worstRoundTrip = 0;
        double worstComposed = 0;
        double worstSlope = 0;
        double worstOffset = 0;
        for (int i = 0; i < 50_000; i++) {
            ClockMap m = randomMap(rnd);
            ClockMap inv = m.inverse();
            BigDecimal slope = m.slope().toBigDecimal();
            BigDecimal slopeError = inv.slope().toBigDecimal().multiply(slope).subtract(BigDecimal.ONE);
            worstSlope = Math.max(worstSlope, slopeError.abs().doubleValue() / 0x1p-106);
            BigDecimal exactOffset = m.offset().toBigDecimal().negate().divide(slope, new MathContext(80));
            worstOffset = Math.max(worstOffset, error(inv.offset(), exactOffset));
            ClockMap identity = m.andThen(inv);
            for (int j = 0; j < 5; j++) {
                long x = j == 0 ? EDGES[rnd.nextInt(EDGES.length)] : randomX(rnd);
                BigDecimal bx = BigDecimal.valueOf(x);
                worstRoundTrip = Math.max(worstRoundTrip, error(inv.apply(m.apply(x)), bx));
                worstComposed = Math.max(worstComposed, error(identity.apply(x), bx));
            }
        }
        System.out.printf("inverse: slope'·slope - 1 worst %.3f u^2, offset' worst error %.3e ns; "
                + "inverse.apply(apply(x)) - x worst %.3e ns, (map.andThen(inverse)).apply(x) - x worst %.3e ns%n",
                worstSlope, worstOffset, worstRoundTrip, worstComposed);
        assertTrue(worstRoundTrip < 1 && worstComposed < 1, "inverse round trip");
    }

    private static BigDecimal exact(ClockMap m, BigDecimal x) {
        return m.slope().toBigDecimal().multiply(x).add(m.offset().toBigDecimal());
    }

    private static double error(DoubleDouble actual, BigDecimal exact) {
        return actual.toBigDecimal().subtract(exact).abs().doubleValue();
    }

    private static ClockMap randomMap(SplittableRandom rnd) {
        return ClockMap.of(slopeNearOne(rnd), randomOffset(rnd));
    }

    /** 1 + δ, |δ| &lt;= 1e-3 with a full double-double δ. */
    private static DoubleDouble slopeNearOne(SplittableRandom rnd) {
        double d = (2 * rnd.nextDouble() - 1) * 1e-3;
        return DoubleDouble.ONE.add(DoubleDouble.of(d, (rnd.nextDouble() - 0.5) * Math.ulp(d)));
    }

    /** Offsets of up to two days, up to 2^62, or near ±2^63, with random low parts. */
    private static DoubleDouble randomOffset(SplittableRandom rnd) {
        double h = switch (rnd.nextInt(4)) {
            case 0 -> (2 * rnd.nextDouble() - 1) * 48 * HOUR;
            case 1 -> (2 * rnd.nextDouble() - 1) * 0x1p62;
            case 2 -> (rnd.nextBoolean() ? 1 : -1) * (0x1p63 - rnd.nextDouble() * 0x1p40);
            default -> (2 * rnd.nextDouble() - 1) * 1e6;
        };
        return DoubleDouble.of(h, (rnd.nextDouble() - 0.5) * Math.ulp(h));
    }

    /** Any long, near ±2^62, near the ends of the range, or small. */
    private static long randomX(SplittableRandom rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextLong();
            case 1 -> (rnd.nextBoolean() ? TWO_62 : -TWO_62) + rnd.nextLong(-(1L << 30), 1L << 30);
            case 2 -> rnd.nextBoolean() ? Long.MAX_VALUE - rnd.nextLong(1L << 30)
                    : Long.MIN_VALUE + rnd.nextLong(1L << 30);
            default -> rnd.nextLong(-(1L << 40), 1L << 40);
        };
    }
}
