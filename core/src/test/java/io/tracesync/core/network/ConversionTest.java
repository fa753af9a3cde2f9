package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ConversionTest {

    /** A realistic factor: drift within ±500 ppm, offsets of hours, both parts of the double-doubles used. */
    private static Factor factor(double drift, double slopeLo, double offsetNs, double offsetLo, long up, long down) {
        return new Factor(ClockMap.of(DoubleDouble.of(1 + drift, slopeLo * 0x1p-60),
                DoubleDouble.of(offsetNs, offsetLo)), up, down);
    }

    @Property(tries = 500)
    void theIntervalIsTheExactValueWidenedByTheBoundsAndRoundedOutward(
            @ForAll @LongRange(min = -500_000_000L, max = 500_000_000L) long driftPpt,
            @ForAll @IntRange(min = -1000, max = 1000) int slopeLo,
            @ForAll @LongRange(min = -10_000_000_000_000L, max = 10_000_000_000_000L) long offset,
            @ForAll @IntRange(min = -100_000, max = 100_000) int offsetLo,
            @ForAll @LongRange(min = 0, max = 10_000_000_000L) long up,
            @ForAll @LongRange(min = 0, max = 10_000_000_000L) long down,
            @ForAll @LongRange(min = 1_600_000_000_000_000_000L, max = 1_900_000_000_000_000_000L) long t) {
        Factor f = factor(driftPpt * 1e-12, slopeLo * 1e-3, offset, offsetLo * 1e-9, up, down);
        Conversion c = Conversion.of(f, t);
        // map(t) within a picosecond of the double-double evaluation the core uses
        BigDecimal dd = f.toReference().apply(t).toBigDecimal();
        assertTrue(c.referenceNs().subtract(dd).abs().compareTo(new BigDecimal("0.001")) < 0, c + " vs " + dd);
        BigDecimal low = c.referenceNs().subtract(BigDecimal.valueOf(down, 3));
        BigDecimal high = c.referenceNs().add(BigDecimal.valueOf(up, 3));
        assertTrue(BigDecimal.valueOf(c.lowerNs()).compareTo(low) <= 0
                && low.subtract(BigDecimal.valueOf(c.lowerNs())).compareTo(BigDecimal.ONE) < 0, c.toString());
        assertTrue(BigDecimal.valueOf(c.upperNs()).compareTo(high) >= 0
                && BigDecimal.valueOf(c.upperNs()).subtract(high).compareTo(BigDecimal.ONE) < 0, c.toString());
        assertTrue(c.lowerNs() <= c.nearestNs() && c.nearestNs() <= c.upperNs());
        assertTrue(c.referenceNs().subtract(BigDecimal.valueOf(c.nearestNs())).abs()
                .compareTo(new BigDecimal("0.5")) <= 0);
    }

    @Test
    void theReferenceConvertsToItselfAndAnUnboundedFactorHasNoInterval() {
        Conversion self = Conversion.of(Factor.REFERENCE, 123_456_789L);
        assertEquals(0, self.referenceNs().compareTo(BigDecimal.valueOf(123_456_789L)));
        assertEquals(123_456_789L, self.lowerNs());
        assertEquals(123_456_789L, self.upperNs());
        Conversion open = Conversion.of(new Factor(ClockMap.IDENTITY, LinkEstimate.UNBOUNDED, 0), 5);
        assertEquals(5, open.lowerNs(), "the bounded side keeps its end");
        assertNull(open.upperNs());
        assertEquals(5, open.nearestNs());
    }

    @Test
    void tiesRoundTowardPositiveInfinityAsTheCoreDoes() {
        ClockMap half = ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(0.5));
        for (long t : new long[] {-3, -1, 0, 2}) {
            assertEquals(half.applyRounded(t), Conversion.of(new Factor(half, 0, 0), t).nearestNs(), "t = " + t);
        }
    }

    /**
     * Bounds that hold at an anchor grow away from it: after it up by growthAbove and down by growthBelow per ns,
     * before it the other way round, rounded up to the picosecond.
     */
    @Test
    void boundsGrowAwayFromTheAnchorAtTheirTwoRates() {
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 2_000, 1_000_000, 1e-6, 3e-6);
        Conversion at = Conversion.of(f, 1_000_000);
        assertEquals(999_998, at.lowerNs());
        assertEquals(1_000_001, at.upperNs());
        // 1 s after the anchor: up 1 ns + 1 µs, down 2 ns + 3 µs, each rounded up by at most a picosecond more
        assertBetween(1_000 + 1_000_000, f.upAtPs(1_001_000_000));
        assertBetween(2_000 + 3_000_000, f.downAtPs(1_001_000_000));
        // 1 s before it: up grows by the lower rate and down by the upper one
        assertBetween(1_000 + 3_000_000, f.upAtPs(-999_000_000));
        assertBetween(2_000 + 1_000_000, f.downAtPs(-999_000_000));
        Conversion after = Conversion.of(f, 1_001_000_000);
        assertEquals(1_001_000_000 - 2 - 3_000 - 1, after.lowerNs(), "3,002.001 ns below, rounded outward");
        assertEquals(1_001_000_000 + 1 + 1_000 + 1, after.upperNs());
        assertEquals(LinkEstimate.UNBOUNDED, f.upAtPs(Long.MIN_VALUE), "beyond the long range: no bound");
    }

    /** Under a clock model both bounds also grow by ρ′d²/2 on either side of the anchor. */
    @Test
    void underAClockModelBoundsAlsoGrowWithTheSquareOfTheDistance() {
        double rho = LinkOptions.perNs(20); // 2·10^-17 per ns
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 2_000, 1_000_000, 1e-6, 3e-6, rho);
        // 10 s after the anchor: up 1 ns + 10 µs + 2·10^-17·10^20/2 ns (1 µs); before it likewise
        assertAbove(1_000 + 10_000_000 + 1_000_000, f.upAtPs(10_001_000_000L));
        assertAbove(2_000 + 30_000_000 + 1_000_000, f.downAtPs(10_001_000_000L));
        assertAbove(1_000 + 30_000_000 + 1_000_000, f.upAtPs(-9_999_000_000L));
        assertEquals(1_000, f.upAtPs(1_000_000), "nothing at the anchor");
        LinkEstimate link = new LinkEstimate(LinkKey.between("a", "b"), LinkQuality.ACCURATE, ClockMap.IDENTITY, 0,
                1 - 1e-6, 1 + 1e-6, 1_000_000, 1_000, 2_000, rho);
        assertAbove(1_000 + 10_000_000 + 1_000_000, link.upAtPs(10_001_000_000L));
        assertAbove(2_000 + 10_000_000 + 1_000_000, link.downAtPs(-9_999_000_000L));
    }

    /** At or above the exact value, by at most 3 ps: each of the two terms rounded up. */
    private static void assertAbove(long exactPs, long gotPs) {
        assertTrue(gotPs >= exactPs && gotPs <= exactPs + 3, gotPs + " vs " + exactPs);
    }

    private static void assertBetween(long exactPs, long gotPs) {
        assertTrue(gotPs >= exactPs && gotPs <= exactPs + 1, gotPs + " vs " + exactPs);
    }

    @Test
    void boundsOfAFractionOfANanosecondRoundToTheNextWholeOnes() {
        Conversion c = Conversion.of(new Factor(ClockMap.IDENTITY, 1, 1), 1000);
        assertEquals(999, c.lowerNs());
        assertEquals(1001, c.upperNs());
    }

    /**
     * The exact conversion against the double-double evaluation ({@link ClockMap#apply}, relative error about
     * 2^-100) on random maps: equal to within that error, and rounded alike except where the exact value lies
     * within it of a tie.
     */
    @Test
    void theExactValueAgreesWithTheDoubleDoubleEvaluationAndRoundsAlikeExceptAtTies() {
        BigDecimal tolerance = BigDecimal.ONE.divide(BigDecimal.valueOf(2).pow(98));
        BigDecimal half = new BigDecimal("0.5");
        Random random = new Random(20261124);
        for (int i = 0; i < 200_000; i++) {
            DoubleDouble slope = DoubleDouble.of(1 + (random.nextDouble() - 0.5) * 2e-3,
                    random.nextGaussian() * 0x1p-54);
            DoubleDouble offset = DoubleDouble.of((random.nextDouble() - 0.5) * 4e18, random.nextGaussian() * 64);
            ClockMap map = ClockMap.of(slope, offset);
            long t = random.nextLong() & ((1L << 62) - 1);
            Conversion c = Conversion.of(new Factor(map, 0, 0), t);
            BigDecimal exact = c.referenceNs();
            BigDecimal error = tolerance.multiply(exact.abs()
                    .add(slope.toBigDecimal().multiply(BigDecimal.valueOf(t))));
            assertTrue(map.apply(t).toBigDecimal().subtract(exact).abs().compareTo(error) <= 0,
                    () -> map + " at " + t + ": " + map.apply(t).toBigDecimal() + " vs exact " + exact);
            long nearest = c.nearestNs();
            long doubleDouble = map.applyRounded(t);
            if (nearest != doubleDouble) {
                BigDecimal tie = exact.subtract(half).setScale(0, RoundingMode.HALF_EVEN).add(half);
                assertTrue(exact.subtract(tie).abs().compareTo(error) <= 0,
                        () -> map + " at " + t + ": " + nearest + " vs " + doubleDouble + ", exact " + exact);
            }
        }
    }
}
