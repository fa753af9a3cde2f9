package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A node's conversion to its reference clock with its guaranteed bounds (picoseconds of the reference clock): the
 * reference's true time for a local time t lies in [map(t) − down(t), map(t) + up(t)], the bounds holding as
 * {@code upPs}/{@code downPs} at the local time {@code anchorNs} and growing away from it with d = t − anchorNs:
 * <pre>
 *   d ≥ 0: up(t) = upPs + growthAbove·d + curvature·d²/2,     down(t) = downPs + growthBelow·d + curvature·d²/2
 *   d &lt; 0: up(t) = upPs + growthBelow·|d| + curvature·d²/2,  down(t) = downPs + growthAbove·|d| + curvature·d²/2
 * </pre>
 * — the true slope lies in [slope − growthBelow, slope + growthAbove] (reference ns per local ns) at the anchor and
 * turns by at most {@code curvature} per local ns away from it (the clock model ρ′; 0 for linear clocks). A factor
 * composed along the spanning tree [Jabbarifar 2013, §5.5.4] has rates 0: its bounds hold at the latest time of
 * every link on its path; {@link NetworkSync#evaluate} gives factors whose bounds hold at a stated time.
 */
public record Factor(ClockMap toReference, long upPs, long downPs, long anchorNs, double growthAbove,
        double growthBelow, double curvature) {

    public static final Factor REFERENCE = new Factor(ClockMap.IDENTITY, 0, 0);
    /**
     * Two clocks counting nanoseconds run at rates within 10^-3 of each other (as {@link NetworkIntervals} and
     * {@link SlackGate} take them): the largest slope of any true relation between two clocks.
     */
    static final double MAX_RATE = 1 + 1e-3;
    /** Covers the rounding of the few double operations of {@link #then} on nonnegative terms. */
    private static final double SAFETY = 1 + 0x1p-48;

    public Factor {
        Objects.requireNonNull(toReference, "toReference");
        if (!(growthAbove >= 0) || !(growthBelow >= 0) || !(curvature >= 0)) {
            throw new IllegalArgumentException("growth must be >= 0: " + growthAbove + ", " + growthBelow + ", "
                    + curvature);
        }
    }

    /** A factor of linear clocks: its bounds grow linearly away from the anchor. */
    public Factor(ClockMap toReference, long upPs, long downPs, long anchorNs, double growthAbove,
            double growthBelow) {
        this(toReference, upPs, downPs, anchorNs, growthAbove, growthBelow, 0);
    }

    /** A factor whose bounds do not grow. */
    public Factor(ClockMap toReference, long upPs, long downPs) {
        this(toReference, upPs, downPs, 0, 0, 0, 0);
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

    /**
     * This factor (a node's clock to a clock H's) followed by {@code next} (H's clock to r's): the node's factor to
     * r, anchored where this one is. With y = map(t) and y_v = map(anchor), the error at local time t is next's error
     * at y plus this factor's error carried through the true relation H → r, whose slope there is at most next's
     * upper slope turned by its curvature over |y − y_H|, and at most {@link #MAX_RATE}. Next's bounds are taken at
     * y_v (δ = |y_v − y_H| from its anchor y_H, on y_v's side, δ rounded up) and grow by at most (its larger rate + curvature·δ)·|y − y_v| +
     * curvature·(y − y_v)²/2 from there, with |y − y_v| ≤ σ|d| (σ this map's slope rounded up); the slope bound's
     * own growth with |y − y_H| is charged on this factor's bound at the anchor, and on its growth at
     * {@link #MAX_RATE}. Each term is an upper bound rounded up; 1 ps more covers the composed map's rounding.
     */
    public Factor then(Factor next) {
        ClockMap map = toReference.andThen(next.toReference);
        if (!bounded() || !next.bounded()) {
            return new Factor(map, LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
        }
        DoubleDouble gap = toReference.apply(anchorNs).subtract(DoubleDouble.of(next.anchorNs));
        double delta = Math.ceil(up(Math.abs(gap.hi()) + Math.abs(gap.lo()))) + 1;
        if (!(delta < 0x1p61) || Math.abs(next.anchorNs) > Long.MAX_VALUE - (long) delta) {
            return new Factor(map, LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
        }
        long past = gap.signum() >= 0 ? next.anchorNs + (long) delta : next.anchorNs - (long) delta;
        long nextUp = next.upAtPs(past);
        long nextDown = next.downAtPs(past);
        double sigma = boundScale(toReference.slope().hi(), toReference.slope().lo());
        double widestNs = Math.max(upPs, downPs) / 1000.0;
        double slope = Math.min(MAX_RATE, up(boundScale(next.toReference.slope().hi(), next.toReference.slope().lo())
                + next.growthAbove + next.curvature * (delta + widestNs)));
        double beyond = slope < MAX_RATE ? up(MAX_RATE - slope) : 0;
        double reach = slope < MAX_RATE ? next.curvature * widestNs : 0;
        double own = Math.max(growthAbove, growthBelow);
        double base = up((Math.max(next.growthAbove, next.growthBelow) + next.curvature * delta) * sigma
                + reach * (sigma + own));
        double scale = up(slope + beyond);
        return new Factor(map, Bounds.add(Bounds.add(nextUp, Bounds.scaleUp(upPs, slope)), 1),
                Bounds.add(Bounds.add(nextDown, Bounds.scaleUp(downPs, slope)), 1), anchorNs,
                up(base + scale * growthAbove), up(base + scale * growthBelow),
                up(next.curvature * sigma * sigma + scale * curvature + reach * curvature));
    }

    /** x rounded up for the few operations it came from (nonnegative terms). */
    private static double up(double x) {
        return Math.nextUp(x * SAFETY);
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The upper bound at local time t, rounded up. */
    public long upAtPs(long t) {
        return grown(upPs, t, t >= anchorNs ? growthAbove : growthBelow);
    }

    /** The lower bound at local time t, rounded up. */
    public long downAtPs(long t) {
        return grown(downPs, t, t >= anchorNs ? growthBelow : growthAbove);
    }

    /** A bound at the anchor grown by (rate + curvature·|d|/2)·|d|, d = t − anchor, rounded up, saturating. */
    private long grown(long boundPs, long t, double rate) {
        if (rate == 0 && curvature == 0) {
            return boundPs;
        }
        long d = t - anchorNs;
        if (((t ^ anchorNs) & (t ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return LinkEstimate.UNBOUNDED;
        }
        long linear = Bounds.add(boundPs, Bounds.scaleUp(Math.abs(d) * 1000, rate));
        return curvature == 0 ? linear
                : Bounds.add(linear, Bounds.scaleUp(Math.abs(d) * 1000, Math.nextUp(curvature * Math.abs(d) / 2)));
    }

    /** The larger bound at the anchor in nanoseconds (3 decimals), or null when unbounded. */
    public BigDecimal boundNs() {
        return bounded() ? BigDecimal.valueOf(Math.max(upPs, downPs), 3) : null;
    }
}
