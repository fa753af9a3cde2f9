package io.tracesync.client;

import io.tracesync.avro.ClockMap;
import java.math.BigDecimal;

/**
 * A factor's map y = slope·x + offset taken exactly: slope and offset are the exact sums hi + lo of the record's
 * double-double parts, and {@link #apply} evaluates the map in BigDecimal without rounding. Immutable.
 */
public final class ExactClockMap {

    private final BigDecimal slope;
    private final BigDecimal offset;

    private ExactClockMap(BigDecimal slope, BigDecimal offset) {
        this.slope = slope;
        this.offset = offset;
    }

    /**
     * The map a record carries.
     *
     * @throws IllegalArgumentException if a part is not finite or the slope is not positive
     */
    public static ExactClockMap of(ClockMap map) {
        BigDecimal slope = exactSum("slope", map.getSlopeHi(), map.getSlopeLo());
        if (slope.signum() <= 0) {
            throw new IllegalArgumentException("slope must be positive: " + slope);
        }
        return new ExactClockMap(slope, exactSum("offset", map.getOffsetHi(), map.getOffsetLo()));
    }

    /** hi + lo exactly: every finite double is a finite binary fraction, which BigDecimal holds without error. */
    private static BigDecimal exactSum(String name, double hi, double lo) {
        if (!Double.isFinite(hi) || !Double.isFinite(lo)) {
            throw new IllegalArgumentException(name + " is not finite: " + hi + " + " + lo);
        }
        return new BigDecimal(hi).add(new BigDecimal(lo));
    }

    public BigDecimal slope() {
        return slope;
    }

    public BigDecimal offset() {
        return offset;
    }

    /** slope·x + offset, exactly. */
    public BigDecimal apply(long x) {
        return slope.multiply(BigDecimal.valueOf(x)).add(offset);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExactClockMap m && slope.compareTo(m.slope) == 0 && offset.compareTo(m.offset) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * slope.stripTrailingZeros().hashCode() + offset.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return "y = " + slope.toPlainString() + "·x + " + offset.toPlainString();
    }
}
