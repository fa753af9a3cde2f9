package io.tracesync.core.link;

import java.math.BigDecimal;

/**
 * Poirier's guaranteed accuracy at one time t of a's clock (2010 §3.1, Eq. 4): every clock line compatible with
 * the messages gives t_b in [C(t) - down, C(t) + up], C being the reported estimate. In nanoseconds of b's clock,
 * rounded outward to the picosecond; null where the corridor is still open on that side.
 */
public record LinkBounds(long t, BigDecimal upNs, BigDecimal downNs) {

    /** The larger of the two sides, or null if either is unbounded. */
    public BigDecimal widest() {
        return upNs == null || downNs == null ? null : upNs.max(downNs);
    }
}
