package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import java.util.Objects;

/**
 * A node's factor with bounds that hold at a stated local time and grow at stated rates away from it: for a local
 * time t of {@code node}, the true time of {@code reference}'s clock lies in [map(t) − down(t), map(t) + up(t)]
 * (ps; {@link LinkEstimate#UNBOUNDED} where open), where, with d = t − anchorNs,
 * <pre>
 *   d ≥ 0: up(t) = upPs + growthAbove·d,     down(t) = downPs + growthBelow·d
 *   d &lt; 0: up(t) = upPs + growthBelow·|d|,  down(t) = downPs + growthAbove·|d|
 * </pre>
 * The true slope of the node's clock against the reference's lies in [slope − growthBelow, slope + growthAbove]
 * (reference ns per local ns), so the band's edges depend on that slope range, not on the slope chosen for the map.
 *
 * <p>{@code anchorNs} is the node's local time at the component's evaluation time T (the reference's local time
 * {@code evaluatedAtNs}), as the node's tree factor places it. The spanning tree's interval at the same time,
 * relative to the same map, is {@code treeUpPs}/{@code treeDownPs}.
 */
public record AnchoredFactor(String node, String reference, ClockMap toReference, long evaluatedAtNs,
        long anchorNs, long upPs, long downPs, double growthAbove, double growthBelow, long treeUpPs,
        long treeDownPs, NetworkMethod method) {

    public AnchoredFactor {
        Objects.requireNonNull(toReference, "toReference");
        Objects.requireNonNull(method, "method");
        if (upPs < 0 || downPs < 0 || treeUpPs < 0 || treeDownPs < 0 || !(growthAbove >= 0)
                || !(growthBelow >= 0)) {
            throw new IllegalArgumentException("negative bound or growth for " + node);
        }
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The upper bound at local time t, rounded up. */
    public long upAtPs(long t) {
        return grown(upPs, t, anchorNs, t >= anchorNs ? growthAbove : growthBelow);
    }

    /** The lower bound at local time t, rounded up. */
    public long downAtPs(long t) {
        return grown(downPs, t, anchorNs, t >= anchorNs ? growthBelow : growthAbove);
    }

    /** A bound (ps) at the anchor grown by rate·|t − anchor|, rounded up, saturating at UNBOUNDED. */
    public static long grown(long boundPs, long t, long anchor, double rate) {
        long d = t - anchor;
        if (((t ^ anchor) & (t ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return LinkEstimate.UNBOUNDED;
        }
        return Bounds.add(boundPs, Bounds.scaleUp(Math.abs(d) * 1000, rate));
    }
}
