package io.tracesync.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@link NodeHistory#convertUnderDatasheet}: the datasheet bounds of the versions around t, intersected. */
class DatasheetIntersectionTest {

    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    /** The relation's slope stays within 1 ± this (two clocks each within ±R of true: 2R), per ns per ns. */
    private static final double SPREAD = 200e-6;

    /**
     * Two clocks' relation as a daemon makes it: straight stretches of 0.5–30 s at any slope within 1 ± 2R, turning
     * at once between them (slews, frequency updates) — beyond any clock model, within the datasheet.
     */
    private static final class Kinked {
        final long[] at;
        final Rational[] value;
        final Rational[] slope;

        Kinked(SplittableRandom r, long from, long to) {
            int n = (int) ((to - from) / (SECOND / 2)) + 2;
            at = new long[n];
            value = new Rational[n];
            slope = new Rational[n];
            at[0] = from;
            value[0] = Rational.of(from + 12_345_678_901L);
            for (int i = 0; i < n; i++) {
                slope[i] = Rational.of(1_000_000_000L + r.nextLong(-199_000, 199_001), 1_000_000_000L);
                if (i + 1 < n) {
                    at[i + 1] = at[i] + r.nextLong(SECOND / 2, 30 * SECOND);
                    value[i + 1] = value[i].add(slope[i].multiply(Rational.of(at[i + 1] - at[i])));
                }
            }
        }

        Rational at(long t) {
            int i = 0;
            while (i + 1 < at.length && at[i + 1] <= t) {
                i++;
            }
            return value[i].add(slope[i].multiply(Rational.of(t - at[i])));
        }
    }

    /**
     * A datasheet bound of g at anchor a: an estimate off by up to 50 µs at a slope off 1 by up to 10 ppm, bounds
     * holding the truth there with a margin up to 20 µs, growing at the slopes 1 ± 2R allow.
     */
    private static Factor datasheet(Kinked g, long a, SplittableRandom r) {
        BigDecimal truth = g.at(a).toBigDecimal(Rational.PRINT);
        double slope = 1 + (r.nextDouble() - 0.5) * 2e-5;
        ClockMap map = ClockMap.through(a, DoubleDouble.of(truth.add(BigDecimal.valueOf(r.nextLong(-50_000, 50_001)))),
                DoubleDouble.of(slope));
        BigDecimal mapped = Conversion.of(new Factor(map, 0, 0), a).referenceNs();
        long up = picosUp(truth.subtract(mapped)) + r.nextLong(0, 20_000_000);
        long down = picosUp(mapped.subtract(truth)) + r.nextLong(0, 20_000_000);
        double margin = 1e-12;
        return new Factor(map, up, down, a, 1 + SPREAD - slope + margin, slope - (1 - SPREAD) + margin, 0, 0);
    }

    private static long picosUp(BigDecimal ns) {
        return Math.max(0, ns.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact());
    }

    private static boolean contains(Conversion c, Rational truth) {
        return c != null && c.lowerNs() != null && c.upperNs() != null
                && Rational.of(c.lowerNs()).compareTo(truth) <= 0 && truth.compareTo(Rational.of(c.upperNs())) <= 0;
    }

    private static long width(Conversion c) {
        return c.upperNs() - c.lowerNs();
    }

    /**
     * Versions 1–120 s apart, some without a datasheet bound, on a relation that turns at once anywhere within the
     * datasheet: every answer, within, before and after them, holds the truth, its estimate inside, and is never
     * wider than the bound of the version in force or of the next one, each carried there; where neither carries
     * one, there is no answer.
     */
    @Property(tries = 200)
    void everyAnswerHoldsAndIsNoWiderThanEitherNeighbour(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Kinked g = new Kinked(r, T0 - 3600 * SECOND, T0 + 7200 * SECOND);
        NodeHistory history = new NodeHistory(1000);
        long a = T0;
        for (int k = 1; k <= 20; k++) {
            Factor model = new Factor(ClockMap.IDENTITY, 0, 0, a, 0, 0);
            Factor sheet = r.nextInt(8) == 0 ? null : datasheet(g, a, r);
            assertTrue(history.add(new FactorVersion(k, "ref", model, k * 1000, Long.MIN_VALUE, sheet)));
            a += r.nextLong(SECOND, 120 * SECOND);
        }
        for (int i = 0; i < 200; i++) {
            long t = T0 + r.nextLong(-600 * SECOND, a - T0 + 600 * SECOND);
            Rational truth = g.at(t);
            Conversion c = history.convertUnderDatasheet(t, null, "ref");
            FactorVersion[] around = {history.inForce(t), history.next(t)};
            if (Arrays.stream(around).noneMatch(v -> v != null && v.datasheet() != null)) {
                assertNull(c, "neither version around t carries a datasheet bound");
                continue;
            }
            assertTrue(contains(c, truth), c + " misses " + truth.toDecimalString());
            assertTrue(c.referenceNs().compareTo(BigDecimal.valueOf(c.lowerNs())) >= 0
                    && c.referenceNs().compareTo(BigDecimal.valueOf(c.upperNs())) <= 0, "estimate outside: " + c);
            for (FactorVersion v : around) {
                if (v != null && v.datasheet() != null) {
                    Conversion alone = Conversion.of(v.datasheet(), t);
                    assertTrue(width(c) <= width(alone), c + " wider than " + alone);
                }
            }
            assertNull(history.convertUnderDatasheet(t, null, "other"), "no version of another reference");
        }
    }

    /**
     * A step of 1 ms at 4 s, placed by the links (the later version's steady-from): times before it take the bound
     * before alone, times after it the bound after, each holding the truth; where the step was not placed, the two
     * bounds have no common point and there is no answer.
     */
    @Test
    void aStepBetweenTwoVersionsLeavesOutTheBoundAcrossIt() {
        long step = 1_000_000;
        Factor identity = new Factor(ClockMap.IDENTITY, 50_000, 50_000, 0, 20e-6, 20e-6);
        Factor stepped = new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(step)), 50_000, 50_000,
                10 * SECOND, 20e-6, 20e-6);
        FactorVersion before = new FactorVersion(1, "ref", identity, 0, Long.MIN_VALUE, identity);
        FactorVersion after = new FactorVersion(2, "ref", stepped, 0, 4 * SECOND, stepped);
        Conversion early = NodeHistory.aroundUnderDatasheet(2 * SECOND, "ref", before, after);
        Conversion late = NodeHistory.aroundUnderDatasheet(6 * SECOND, "ref", before, after);
        assertEquals(Conversion.of(identity, 2 * SECOND), early);
        assertEquals(Conversion.of(stepped, 6 * SECOND), late);
        assertTrue(contains(early, Rational.of(2 * SECOND)) && contains(late, Rational.of(6 * SECOND + step)));
        FactorVersion unplaced = new FactorVersion(2, "ref", stepped, 0, Long.MIN_VALUE, stepped);
        assertNull(NodeHistory.aroundUnderDatasheet(6 * SECOND, "ref", before, unplaced));
    }

    /** The newest version, which the history did not keep, joins those held around t. */
    @Test
    void theNewestVersionBesideTheHistoryTightensTheAnswer() {
        Factor first = new Factor(ClockMap.IDENTITY, 50_000, 50_000, 0, 200e-6, 200e-6);
        Factor last = new Factor(ClockMap.IDENTITY, 50_000, 50_000, 20 * SECOND, 200e-6, 200e-6);
        NodeHistory h = new NodeHistory(10);
        h.add(new FactorVersion(1, "ref", first, 0, Long.MIN_VALUE, first));
        FactorVersion newest = new FactorVersion(2, "ref", last, 0, Long.MIN_VALUE, last);
        Conversion alone = h.convertUnderDatasheet(15 * SECOND, null, "ref");
        Conversion both = h.convertUnderDatasheet(15 * SECOND, newest, "ref");
        assertNotNull(alone);
        assertEquals(Conversion.of(first, 15 * SECOND), alone);
        assertEquals(Conversion.of(last, 15 * SECOND), both, "the nearer bound, inside the farther one");
    }
}
