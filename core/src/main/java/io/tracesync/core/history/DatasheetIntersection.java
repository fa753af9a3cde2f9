package io.tracesync.core.history;

import io.tracesync.core.network.Conversion;
import java.math.BigDecimal;

/**
 * A local time converted under the datasheet alone with several versions of one reference: each version's datasheet
 * bound holds at any time of its stretch of the clocks (docs/LINK-CORE.md, "The datasheet bound"), so the
 * intersection of those carried to t holds. A bound anchored at or before t is carried unless a version places a
 * step between that anchor and t (its {@link FactorVersion#steadyFromNs}); one anchored after t is carried back
 * only if its version's stretch began by t.
 */
final class DatasheetIntersection {

    private DatasheetIntersection() {
    }

    /**
     * The intersection at t of the datasheet bounds of {@code versions} (nulls and versions without one left out)
     * that rest on t's stretch; its estimate the nearest version's, kept inside. Null where none does, where an end is
     * unbounded, or where the intervals have no common point.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    static Conversion of(long t, FactorVersion... versions) {
        long lower = Long.MIN_VALUE;
        long upper = Long.MAX_VALUE;
        Conversion nearest = null;
        long nearestDistance = Long.MAX_VALUE;
        for (FactorVersion v : versions) {
            if (v == null || v.datasheet() == null || !onStretchOf(v, t, versions)) {
                continue;
            }
            Conversion c = Conversion.of(v.datasheet(), t);
            if (c.lowerNs() == null || c.upperNs() == null) {
                continue;
            }
            lower = Math.max(lower, c.lowerNs());
            upper = Math.min(upper, c.upperNs());
            long distance = Math.abs(t - v.datasheet().anchorNs());
            if (nearest == null || distance < nearestDistance) {
                nearest = c;
                nearestDistance = distance;
            }
        }
        if (nearest == null || lower > upper) {
            return null;
        }
        BigDecimal estimate = nearest.referenceNs().max(BigDecimal.valueOf(lower)).min(BigDecimal.valueOf(upper));
        return new Conversion(t, estimate, lower, upper);
    }

    /** Whether no step lies between the anchor of v's datasheet bound and t, as far as the versions tell. */
    private static boolean onStretchOf(FactorVersion v, long t, FactorVersion[] versions) {
        long anchor = v.datasheet().anchorNs();
        if (anchor > t) {
            return v.steadyFromNs() <= t;
        }
        for (FactorVersion u : versions) {
            if (u != null && u.steadyFromNs() > anchor && u.steadyFromNs() <= t) {
                return false;
            }
        }
        return true;
    }
}
