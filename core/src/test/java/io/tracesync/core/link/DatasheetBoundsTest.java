package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The datasheet bound, exactly: two clocks whose rates stay within ±R of true time — changing at random, by steps
 * and by fast slews as a daemon's, always within R — exchange messages with random delays; at any time after the
 * messages the relation lies inside the bounds. With a clock running faster than R the bound misses.
 */
class DatasheetBoundsTest {

    private static final long SECOND = 1_000_000_000L;

    private static long floor(Rational q) {
        return CurvedClock.floor(q);
    }

    private static long ceil(Rational q) {
        return -CurvedClock.floor(q.negate());
    }

    private static Rational exact(BigDecimal d) {
        return d.scale() <= 0 ? Rational.of(d.toBigIntegerExact(), BigInteger.ONE)
                : Rational.of(d.unscaledValue(), BigInteger.TEN.pow(d.scale()));
    }

    @Property(tries = 100)
    void theRelationLiesInsideWheneverBothRatesStayWithinR(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double ppm = 1 + r.nextInt(600);
        long span = 600 * SECOND;
        RateBoundedClock a = RateBoundedClock.random(r, span + 300 * SECOND, ppm, r.nextLong(-(1L << 50), 1L << 50));
        RateBoundedClock b = RateBoundedClock.random(r, span + 300 * SECOND, ppm, r.nextLong(-(1L << 50), 1L << 50));
        DatasheetBounds bounds = new DatasheetBounds(ppm);
        long latest = Long.MIN_VALUE;
        int checked = 0;
        for (long t = SECOND; t < span; t += r.nextLong(1, 2 * SECOND)) {
            Rational send = Rational.of(t);
            Rational recv = send.add(Rational.of(r.nextBoolean() ? r.nextLong(4) : r.nextLong(500_000)));
            if (r.nextBoolean()) {
                long x = floor(a.at(send));
                bounds.add(true, x, ceil(b.at(recv)));
                latest = Math.max(latest, x);
            } else {
                long x = ceil(a.at(recv));
                bounds.add(false, x, floor(b.at(send)));
                latest = Math.max(latest, x);
            }
            if (r.nextInt(5) == 0) {
                long at = latest + r.nextLong(0, 120 * SECOND);
                Rational truth = b.at(a.trueAt(Rational.of(at)));
                BigDecimal up = bounds.upperAt(at);
                BigDecimal down = bounds.lowerAt(at);
                assertTrue(up == null || truth.compareTo(exact(up)) <= 0, "above at " + at);
                assertTrue(down == null || truth.compareTo(exact(down)) >= 0, "below at " + at);
                checked++;
            }
        }
        assertTrue(checked > 20, checked + " checks");
    }

    /** Clock b 3R fast, a on time: 10 minutes after the last message the upper bound misses; with 3R it holds. */
    @Test
    void aClockBeyondRLeavesTheBounds() {
        long r = 100; // ppm
        DatasheetBounds tight = new DatasheetBounds(r);
        DatasheetBounds wide = new DatasheetBounds(3 * r);
        long x = 1_000 * SECOND;
        long y = x + 3 * r * x / 1_000_000;
        for (DatasheetBounds d : new DatasheetBounds[] {tight, wide}) {
            assertNull(d.upperAt(x));
            d.add(true, x, y + 1);
            d.add(false, x, y - 1);
        }
        long t = x + 600 * SECOND;
        BigDecimal truth = BigDecimal.valueOf(t + 3 * r * t / 1_000_000);
        assertTrue(truth.compareTo(tight.upperAt(t)) > 0, "R misses a clock 3R fast");
        assertTrue(truth.compareTo(wide.upperAt(t)) <= 0 && truth.compareTo(wide.lowerAt(t)) >= 0);
    }
}
