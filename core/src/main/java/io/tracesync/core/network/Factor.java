package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
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
 * turns by at most {@code curvature} per local ns away from it (the clock model ρ′, plus κ/τ with frequency steps;
 * 0 for linear clocks), and besides by frequency steps adding up to at most {@code step} within any τ (κ; 0: none),
 * which a chord between two anchors must allow for ({@code HistoricConversion}). A factor composed along the spanning
 * tree [Jabbarifar 2013, §5.5.4] has rates 0: its bounds hold at the latest time of every link on its path;
 * {@link NetworkSync#evaluate} gives factors whose bounds hold at a stated time.
 */
public record Factor(ClockMap toReference, long upPs, long downPs, long anchorNs, double growthAbove,
        double growthBelow, double curvature, double step) {

    public static final Factor REFERENCE = new Factor(ClockMap.IDENTITY, 0, 0);

    public Factor {
        Objects.requireNonNull(toReference, "toReference");
        if (!(growthAbove >= 0) || !(growthBelow >= 0) || !(curvature >= 0) || !(step >= 0)) {
            throw new IllegalArgumentException("growth must be >= 0: " + growthAbove + ", " + growthBelow + ", "
                    + curvature + ", " + step);
        }
    }

    /** A factor without frequency steps. */
    public Factor(ClockMap toReference, long upPs, long downPs, long anchorNs, double growthAbove,
            double growthBelow, double curvature) {
        this(toReference, upPs, downPs, anchorNs, growthAbove, growthBelow, curvature, 0);
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
