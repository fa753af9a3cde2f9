package io.tracesync.core.network;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A local time converted to its reference clock with the guaranteed interval of its factor: the reference's true
 * time lies in [lowerNs, upperNs], the factor's bounds grown to the local time ({@link Factor#upAtPs}).
 * {@code referenceNs} is map(t) exactly (the map's double-doubles are binary fractions, so the product and sum are
 * exact decimals); the interval is rounded outward to whole nanoseconds, each end null while its bound is
 * unbounded.
 */
public record Conversion(long localNs, BigDecimal referenceNs, Long lowerNs, Long upperNs) {

    private static final BigDecimal HALF = new BigDecimal("0.5");

    /** Converts local time t with factor f, its bounds grown to t; a side whose bound is unbounded has no end. */
    public static Conversion of(Factor f, long t) {
        BigDecimal y = f.toReference().slope().toBigDecimal().multiply(BigDecimal.valueOf(t))
                .add(f.toReference().offset().toBigDecimal());
        long down = f.downAtPs(t);
        long up = f.upAtPs(t);
        Long lower = down == LinkEstimate.UNBOUNDED ? null
                : y.subtract(picos(down)).setScale(0, RoundingMode.FLOOR).longValueExact();
        Long upper = up == LinkEstimate.UNBOUNDED ? null
                : y.add(picos(up)).setScale(0, RoundingMode.CEILING).longValueExact();
        return new Conversion(t, y, lower, upper);
    }

    private static BigDecimal picos(long ps) {
        return BigDecimal.valueOf(ps, 3);
    }

    /** map(t) rounded to the nearest nanosecond, ties toward positive infinity (as {@code ClockMap.applyRounded}). */
    public long nearestNs() {
        return referenceNs.add(HALF).setScale(0, RoundingMode.FLOOR).longValueExact();
    }
}
