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
        double slope = Math.nextUp(toReference.slope().hi() + toReference.slope().lo());
        return new Factor(hop.map().andThen(toReference), Bounds.add(upPs, Bounds.scaleUp(hop.upPs(), slope)),
                Bounds.add(downPs, Bounds.scaleUp(hop.downPs(), slope)));
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The larger bound in nanoseconds (3 decimals), or null when unbounded. */
    public BigDecimal boundNs() {
        return bounded() ? BigDecimal.valueOf(Math.max(upPs, downPs), 3) : null;
    }
}
