package io.tracesync.core.network;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A local time converted to its reference clock with the guaranteed interval of its factor: the reference's true
 * time lies in [lowerNs, upperNs] (thesis §5.5.4). {@code referenceNs} is map(t) exactly (the map's double-doubles
 * are binary fractions, so the product and sum are exact decimals); the interval is rounded outward to whole
 * nanoseconds, and null while the factor is unbounded.
 */
public record Conversion(long localNs, BigDecimal referenceNs, Long lowerNs, Long upperNs) {

    private static final BigDecimal PS_PER_NS = BigDecimal.valueOf(1000);

    /** Converts local time t with factor f. */
    public static Conversion of(Factor f, long t) {
        BigDecimal y = f.toReference().slope().toBigDecimal().multiply(BigDecimal.valueOf(t))
                .add(f.toReference().offset().toBigDecimal());
        if (!f.bounded()) {
            return new Conversion(t, y, null, null);
        }
        BigDecimal lower = y.subtract(BigDecimal.valueOf(f.downPs()).divide(PS_PER_NS));
        BigDecimal upper = y.add(BigDecimal.valueOf(f.upPs()).divide(PS_PER_NS));
        return new Conversion(t, y, lower.setScale(0, RoundingMode.FLOOR).longValueExact(),
                upper.setScale(0, RoundingMode.CEILING).longValueExact());
    }

    /** map(t) rounded to the nearest nanosecond, ties up. */
    public long nearestNs() {
        return referenceNs.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }
}
