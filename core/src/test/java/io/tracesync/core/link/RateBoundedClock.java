package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A clock of true time whose rate stays within ±R of 1 and changes as it likes within that — pieces of constant rate
 * of 0.1–30 s, at the limit one time in three —, exact (rationals); its inverse too. Test helper for the datasheet
 * bound.
 */
public final class RateBoundedClock {

    private final long[] starts;
    private final Rational[] values;
    private final Rational[] rates;

    private RateBoundedClock(long[] starts, Rational[] values, Rational[] rates) {
        this.starts = starts;
        this.values = values;
        this.rates = rates;
    }

    /** Over [0, span] of true ns, reading {@code offset} at 0, its rate within ±{@code ppm}. */
    public static RateBoundedClock random(SplittableRandom rnd, long span, double ppm, long offset) {
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
            long length = rnd.nextLong(100_000_000L, 30_000_000_000L);
            starts.add(t);
            values.add(value);
            rates.add(rate);
            value = value.add(rate.multiply(Rational.of(length)));
            t += length;
        }
        return new RateBoundedClock(starts.stream().mapToLong(Long::longValue).toArray(),
                values.toArray(Rational[]::new), rates.toArray(Rational[]::new));
    }

    /** The clock's reading at true time {@code trueNs}. */
    public Rational at(Rational trueNs) {
        long floor = CurvedClock.floor(trueNs);
        int i = 0;
        while (i < starts.length - 1 && floor >= starts[i + 1]) {
            i++;
        }
        return values[i].add(rates[i].multiply(trueNs.subtract(Rational.of(starts[i]))));
    }

    /** The true time at which the clock reads {@code local}. */
    public Rational trueAt(Rational local) {
        int i = 0;
        while (i < starts.length - 1 && values[i + 1].compareTo(local) <= 0) {
            i++;
        }
        return Rational.of(starts[i]).add(local.subtract(values[i]).divide(rates[i]));
    }
}
