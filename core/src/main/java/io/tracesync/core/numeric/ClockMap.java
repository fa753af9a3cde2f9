package io.tracesync.core.numeric;

import java.util.Objects;

/**
 * An immutable increasing linear clock map y = slope·x + offset, held in double-double. Applying it to any long
 * has an error far below 1 ns relative to the exact value of the map as held (about 2^-100·|slope·x|).
 */
public record ClockMap(DoubleDouble slope, DoubleDouble offset) {

    public static final ClockMap IDENTITY = new ClockMap(DoubleDouble.ONE, DoubleDouble.ZERO);

    /** @throws IllegalArgumentException unless slope &gt; 0 */
    public ClockMap {
        Objects.requireNonNull(offset, "offset");
        if (slope.signum() <= 0) {
            throw new IllegalArgumentException("slope must be positive: " + slope);
        }
    }

    public static ClockMap of(DoubleDouble slope, DoubleDouble offset) {
        return new ClockMap(slope, offset);
    }

    /** The line through (x0, y0) with the given slope. */
    public static ClockMap through(long x0, DoubleDouble y0, DoubleDouble slope) {
        return new ClockMap(slope, y0.subtract(slope.multiply(DoubleDouble.of(x0))));
    }

    public DoubleDouble apply(long x) {
        return apply(DoubleDouble.of(x));
    }

    public DoubleDouble apply(DoubleDouble x) {
        return slope.multiply(x).add(offset);
    }

    /**
     * {@link #apply(long)} rounded to the nearest long (ties toward positive infinity).
     *
     * @throws ArithmeticException if that is outside the long range
     */
    public long applyRounded(long x) {
        return apply(x).roundToLong();
    }

    /** x = (y - offset) / slope. */
    public ClockMap inverse() {
        return new ClockMap(DoubleDouble.ONE.divide(slope), offset.negate().divide(slope));
    }

    /** next ∘ this: x ↦ next.apply(this.apply(x)). */
    public ClockMap andThen(ClockMap next) {
        double[] m = new double[12];
        store(m, 0);
        next.store(m, 4);
        andThen(m, 0, m, 4, m, 8);
        return load(m, 8);
    }

    /**
     * {@link #andThen(ClockMap)} on maps stored as by {@link #store}: next ∘ first into out[k..k+3], which must not
     * overlap the inputs. Allocates nothing.
     */
    public static void andThen(double[] first, int i, double[] next, int j, double[] out, int k) {
        DoubleDoubleArithmetic.multiply(next[j], next[j + 1], first[i], first[i + 1], out, k);
        DoubleDoubleArithmetic.multiply(next[j], next[j + 1], first[i + 2], first[i + 3], out, k + 2);
        DoubleDoubleArithmetic.add(out[k + 2], out[k + 3], next[j + 2], next[j + 3], out, k + 2);
    }

    /** Stores this map at a[at..at+3]: slope hi, slope lo, offset hi, offset lo. */
    public void store(double[] a, int at) {
        a[at] = slope.hi();
        a[at + 1] = slope.lo();
        a[at + 2] = offset.hi();
        a[at + 3] = offset.lo();
    }

    /**
     * The map stored at a[at..at+3] by {@link #store} or the static {@code andThen}: its double-doubles are taken
     * as they are, normalized.
     */
    public static ClockMap load(double[] a, int at) {
        return new ClockMap(new DoubleDouble(a, at), new DoubleDouble(a, at + 2));
    }

    @Override
    public String toString() {
        return "ClockMap[slope=" + slope.toDecimalString() + ", offset=" + offset.toDecimalString() + "]";
    }
}
