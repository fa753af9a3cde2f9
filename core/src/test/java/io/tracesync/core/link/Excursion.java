package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An offset excursion e(x) of at most Φ either way, as a time daemon leaves one: piecewise linear through values
 * within ±Φ (at its limit more often than not) at knots 1 ms to 1 min apart, so that it rises and falls at any
 * rate up to Φ per ms — an offset slewed in and out. Constant beyond its knots. Exact (rationals); test helper.
 */
public final class Excursion {

    private final long[] xs;
    private final long[] values;

    private Excursion(long[] xs, long[] values) {
        this.xs = xs;
        this.values = values;
    }

    /** The excursion through {@code values} at the increasing knots {@code xs}. */
    public static Excursion of(long[] xs, long[] values) {
        return new Excursion(xs.clone(), values.clone());
    }

    public static Excursion random(SplittableRandom r, long from, long to, long phi) {
        long[] xs = new long[16];
        long[] values = new long[16];
        int n = 0;
        for (long x = from; x <= to; x += r.nextLong(1_000_000L, 60_000_000_000L)) {
            if (n == xs.length) {
                xs = Arrays.copyOf(xs, 2 * n);
                values = Arrays.copyOf(values, 2 * n);
            }
            xs[n] = x;
            values[n++] = switch (r.nextInt(4)) {
                case 0 -> phi;
                case 1 -> -phi;
                case 2 -> 0;
                default -> r.nextLong(-phi, phi + 1);
            };
        }
        return new Excursion(Arrays.copyOf(xs, n), Arrays.copyOf(values, n));
    }

    /** e(x). */
    public Rational at(long x) {
        int i = Arrays.binarySearch(xs, x);
        if (i >= 0) {
            return Rational.of(values[i]);
        }
        int next = -i - 1;
        if (next == 0) {
            return Rational.of(values[0]);
        }
        if (next == xs.length) {
            return Rational.of(values[xs.length - 1]);
        }
        int prev = next - 1;
        Rational along = Rational.of(x - xs[prev], xs[next] - xs[prev]);
        return Rational.of(values[prev]).add(Rational.of(values[next] - values[prev]).multiply(along));
    }
}
