package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.math.BigInteger;

/**
 * The line through two integer points with x1 != x2, held by its points so that slope, intercept and values are
 * exact rationals: y = slope * x + intercept.
 */
public record ExactLine(long x1, long y1, long x2, long y2) {

    public ExactLine {
        if (x1 == x2) {
            throw new IllegalArgumentException("a clock line needs two distinct x: " + x1);
        }
    }

    private BigInteger dx() {
        return BigInteger.valueOf(x2).subtract(BigInteger.valueOf(x1));
    }

    private BigInteger dy() {
        return BigInteger.valueOf(y2).subtract(BigInteger.valueOf(y1));
    }

    public Rational slope() {
        return Rational.of(dy(), dx());
    }

    /** A double at most the slope (see {@link ConvexHullLink#minSlopeBelow()}). */
    public double slopeBelow() {
        return DudaEstimator.Side.of(this).slopeBelow();
    }

    /** A double at least the slope (see {@link ConvexHullLink#maxSlopeAbove()}). */
    public double slopeAbove() {
        return DudaEstimator.Side.of(this).slopeAbove();
    }

    /** y at x = 0: y1 - slope * x1. */
    public Rational intercept() {
        return valueAt(0);
    }

    /** The exact y of the line at x = t. */
    public Rational valueAt(long t) {
        BigInteger dx = dx();
        BigInteger num = BigInteger.valueOf(y1).multiply(dx)
                .add(dy().multiply(BigInteger.valueOf(t).subtract(BigInteger.valueOf(x1))));
        return Rational.of(num, dx);
    }
}
