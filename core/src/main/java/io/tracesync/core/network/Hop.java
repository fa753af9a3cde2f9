package io.tracesync.core.network;

import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;

/**
 * A link crossed in one direction: the map from the near node's clock to the far node's, and guaranteed bounds in
 * picoseconds of the far clock: the far node's true time lies in [map(t) - down, map(t) + up].
 */
record Hop(ClockMap map, long upPs, long downPs) {

    /** a → b, with the link's own bounds (none for an APPROXIMATE link: its corridor is open on one side). */
    static Hop forward(LinkEstimate e) {
        return e.quality() == LinkQuality.ACCURATE ? new Hop(e.aToB(), e.upPs(), e.downPs())
                : new Hop(e.aToB(), LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
    }

    /**
     * b → a through the inverse map. If f is the true a→b clock relation, t_a - inverse(t_b) = (t_b - f(t̂_a)) /
     * f', and f' is at least the smallest compatible slope: up and down swap and grow by 1/minSlope.
     */
    static Hop backward(LinkEstimate e) {
        ClockMap inv = e.aToB().inverse();
        if (e.quality() != LinkQuality.ACCURATE || !(e.minSlope() > 0)) {
            return new Hop(inv, LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
        }
        double scale = 1 / Math.nextDown(e.minSlope());
        return new Hop(inv, Bounds.scaleUp(e.downPs(), scale), Bounds.scaleUp(e.upPs(), scale));
    }
}
