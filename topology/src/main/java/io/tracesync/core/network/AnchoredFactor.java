package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import java.util.Objects;

/**
 * A node's factor with bounds that hold at a stated time and grow at a stated rate away from it: for a local time
 * t of {@code node}, the true time of {@code reference}'s clock lies in [map(t) − down(t), map(t) + up(t)] with
 * up(t) = upPs + growth·|t − anchorNs| and down(t) likewise (ps; {@link LinkEstimate#UNBOUNDED} where open).
 *
 * <p>{@code anchorNs} is the node's local time at the component's evaluation time T (the reference's local time
 * {@code evaluatedAtNs}), as the node's tree factor places it; {@code growth} bounds how far the true slope of the
 * node's clock against the reference's can differ from the map's (reference ns per local ns). The spanning tree's
 * interval at the same time, relative to the same map, is {@code treeUpPs}/{@code treeDownPs}.
 */
public record AnchoredFactor(String node, String reference, ClockMap toReference, long evaluatedAtNs,
        long anchorNs, long upPs, long downPs, double growth, long treeUpPs, long treeDownPs,
        NetworkMethod method) {

    public AnchoredFactor {
        Objects.requireNonNull(toReference, "toReference");
        Objects.requireNonNull(method, "method");
        if (upPs < 0 || downPs < 0 || treeUpPs < 0 || treeDownPs < 0 || !(growth >= 0)) {
            throw new IllegalArgumentException("negative bound or growth for " + node);
        }
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The upper bound at local time t, rounded up. */
    public long upAtPs(long t) {
        return Bounds.add(upPs, growthPs(t));
    }

    /** The lower bound at local time t, rounded up. */
    public long downAtPs(long t) {
        return Bounds.add(downPs, growthPs(t));
    }

    private long growthPs(long t) {
        long d = t - anchorNs;
        if (((t ^ anchorNs) & (t ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return LinkEstimate.UNBOUNDED;
        }
        return Bounds.scaleUp(Math.abs(d) * 1000, growth);
    }

    /** Whether an error (estimate − truth, ns) at local time t is allowed: it lies in [−up(t), down(t)]. */
    public boolean contains(long t, double errorNs) {
        double ps = errorNs * 1000;
        return bounded() && ps <= downAtPs(t) && -ps <= upAtPs(t);
    }
}
