package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A node's conversion to its reference clock with its guaranteed bounds (picoseconds of the reference clock): the
 * reference's true time for a local time t lies in [map(t) - down, map(t) + up]. Composed along the spanning tree
 * path (thesis §5.5.4); the bounds hold at the latest time of every link on the path.
 */
public record Factor(ClockMap toReference, long upPs, long downPs) {

    public static final Factor REFERENCE = new Factor(ClockMap.IDENTITY, 0, 0);

    public Factor {
        Objects.requireNonNull(toReference, "toReference");
    }

    /**
     * The factor of a neighbour whose hop leads to this node: its map is hop then this; the hop's error, in this
     * node's units, passes through this node's map and is scaled by its slope.
     */
    Factor child(Hop hop) {
        double scale = boundScale(toReference.slope().hi(), toReference.slope().lo());
        return new Factor(hop.map().andThen(toReference), childBound(upPs, hop.upPs(), scale),
                childBound(downPs, hop.downPs(), scale));
    }

    /** σ, a parent's slope hi + lo rounded up: it scales its children's hop bounds into reference units. */
    static double boundScale(double slopeHi, double slopeLo) {
        return Math.nextUp(slopeHi + slopeLo);
    }

    /** A child's bound U = U_p + σ·u from its parent's U_p and its hop's u, saturating. */
    static long childBound(long parentPs, long hopPs, double scale) {
        return Bounds.add(parentPs, Bounds.scaleUp(hopPs, scale));
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The larger bound in nanoseconds (3 decimals), or null when unbounded. */
    public BigDecimal boundNs() {
        return bounded() ? BigDecimal.valueOf(Math.max(upPs, downPs), 3) : null;
    }
}
