package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
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

    /** A clock of true time: pieces of constant rate, exact; its inverse by bisection over the pieces. */
    private record Clock(long[] starts, Rational[] values, Rational[] rates) {

        /** Pieces of 0.1–30 s over [0, span], each at a rate within ±r of 1 (its limit one time in three). */
        static Clock random(SplittableRandom rnd, long span, double ppm, long offset) {
            List<Long> starts = new ArrayList<>();
            List<Rational> values = new ArrayList<>();
            List<Rational> rates = new ArrayList<>();
            Rational value = Rational.of(offset);
            long t = 0;
            long ppb = Math.round(ppm * 1000);
            while (t < span) {
                long drift = switch (rnd.nextInt(3)) {
                    case 0 -> rnd.nextBoolean() ? ppb : -ppb;
                    default -> rnd.nextLong(-ppb, ppb + 1);
                };
                Rational rate = Rational.of(1).add(Rational.of(drift, 1_000_000_000L));
                long length = rnd.nextLong(SECOND / 10, 30 * SECOND);
                starts.add(t);
                values.add(value);
                rates.add(rate);
                value = value.add(rate.multiply(Rational.of(length)));
                t += length;
            }
            return new Clock(starts.stream().mapToLong(Long::longValue).toArray(), values.toArray(Rational[]::new),
                    rates.toArray(Rational[]::new));
        }

        private int piece(long trueNs) {
            int i = 0;
            while (i < starts.length - 1 && trueNs >= starts[i + 1]) {
                i++;
            }
            return i;
        }

        Rational at(Rational trueNs) {
            long floor = floor(trueNs);
            int i = piece(floor);
            return values[i].add(rates[i].multiply(trueNs.subtract(Rational.of(starts[i]))));
        }

        /** The true time at which the clock reads {@code local}. */
        Rational trueAt(Rational local) {
            int i = 0;
            while (i < starts.length - 1 && values[i + 1].compareTo(local) <= 0) {
                i++;
            }
            return Rational.of(starts[i]).add(local.subtract(values[i]).divide(rates[i]));
        }
    }

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
        Clock a = Clock.random(r, span + 300 * SECOND, ppm, r.nextLong(-(1L << 50), 1L << 50));
        Clock b = Clock.random(r, span + 300 * SECOND, ppm, r.nextLong(-(1L << 50), 1L << 50));
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
