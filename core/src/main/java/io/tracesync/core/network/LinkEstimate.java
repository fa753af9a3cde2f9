package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.DatasheetBounds;
import io.tracesync.core.link.LinkBounds;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What the network core needs of one link a~b: its quality, the estimate a→b, the slope accuracy and the smallest
 * and largest compatible slopes (doubles: they rank links and scale bounds, rounded the safe way: the true slope
 * lies in [minSlope, maxSlope]), the link's latest time {@code latestNs} on a's clock and Poirier's bounds there in
 * picoseconds of b's clock ({@link #UNBOUNDED} where the corridor is open), the clock model's turn per ns of a's
 * clock ({@code curvature}: ρ′, plus κ/τ with frequency steps; 0 for linear clocks), its frequency steps κ
 * ({@code step}, a fraction: the steps within any τ add up to at most it; 0 for none) and its offset excursion Φ
 * ({@code excursionPs}: the bounds each include it, a constant the gates leave out of the widths they compare).
 *
 * <p>From these the relation is bounded at any time of a's clock: its slope lies in [minSlope, maxSlope] around
 * the latest time and turns by at most {@code curvature} per ns away from it (see {@link #upAtPs}).
 */
public record LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
        double maxSlope, long latestNs, long upPs, long downPs, double curvature, double step, long excursionPs) {

    public static final long UNBOUNDED = Long.MAX_VALUE;

    public LinkEstimate {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(quality, "quality");
        if ((quality == LinkQuality.ACCURATE || quality == LinkQuality.APPROXIMATE) && aToB == null) {
            throw new IllegalArgumentException(quality + " link " + key + " needs an estimate");
        }
        if (upPs < 0 || downPs < 0) {
            throw new IllegalArgumentException("negative bound on " + key);
        }
        if (!(curvature >= 0)) {
            throw new IllegalArgumentException("curvature of " + key + " must be at least 0: " + curvature);
        }
        if (!(step >= 0)) {
            throw new IllegalArgumentException("frequency steps of " + key + " must be at least 0: " + step);
        }
        if (excursionPs < 0) {
            throw new IllegalArgumentException("the excursion of " + key + " must be at least 0: " + excursionPs);
        }
    }

    /** An estimate without an offset excursion (Φ = 0). */
    public LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
            double maxSlope, long latestNs, long upPs, long downPs, double curvature, double step) {
        this(key, quality, aToB, slopeAccuracy, minSlope, maxSlope, latestNs, upPs, downPs, curvature, step, 0);
    }

    /** An estimate without frequency steps (κ = 0). */
    public LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
            double maxSlope, long latestNs, long upPs, long downPs, double curvature) {
        this(key, quality, aToB, slopeAccuracy, minSlope, maxSlope, latestNs, upPs, downPs, curvature, 0);
    }

    /** An estimate of linear clocks (ρ′ = 0). */
    public LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
            double maxSlope, long latestNs, long upPs, long downPs) {
        this(key, quality, aToB, slopeAccuracy, minSlope, maxSlope, latestNs, upPs, downPs, 0);
    }

    /** An ACCURATE link with the given estimate, slope range, latest time and bounds there. */
    public static LinkEstimate accurate(LinkKey key, ClockMap aToB, double slopeAccuracy, double minSlope,
            double maxSlope, long latestNs, long upPs, long downPs) {
        return new LinkEstimate(key, LinkQuality.ACCURATE, aToB, slopeAccuracy, minSlope, maxSlope, latestNs, upPs,
                downPs);
    }

    /** A link that cannot take part (ABSENT, INCOMPLETE or FAIL): it leaves the graph. */
    public static LinkEstimate unusable(LinkKey key, LinkQuality quality) {
        return new LinkEstimate(key, quality, null, Double.NaN, Double.NaN, Double.NaN, 0, UNBOUNDED, UNBOUNDED);
    }

    /** The current state of a link of the link core, with {@link ConvexHullLink#quality()} as its quality. */
    public static LinkEstimate of(LinkKey key, ConvexHullLink link) {
        LinkQuality q = link.quality();
        if (q != LinkQuality.ACCURATE && q != LinkQuality.APPROXIMATE) {
            return unusable(key, q);
        }
        return new LinkEstimate(key, q, link.estimate(), link.slopeAccuracyValue(), link.minSlopeBelow(),
                link.maxSlopeAbove(), link.latestX(), UNBOUNDED, UNBOUNDED, link.options().carriedCurvaturePerNs(),
                link.options().stepPpb() * 1e-9, link.options().excursionPs()).atLatest(link);
    }

    /**
     * The link under the datasheet alone ({@link io.tracesync.core.link.LinkOptions#maxDriftPpm}): its interval at
     * its latest time ({@link DatasheetBounds}) around the line of slope 1 through its middle, its slope range
     * [s_min, s_max] everywhere, no curvature; INCOMPLETE while a direction has no message, FAIL where the two
     * bounds cross (a clock step not yet detected).
     */
    public static LinkEstimate datasheet(LinkKey key, ConvexHullLink link) {
        DatasheetBounds d = link.datasheet();
        if (d == null) {
            return unusable(key, LinkQuality.INCOMPLETE);
        }
        long t = link.latestX();
        return datasheet(key, t, d.lowerAt(t), d.upperAt(t), d.minSlope(), d.maxSlope());
    }

    /**
     * A link under the datasheet alone from its interval [lo, hi] at its latest time t (null: no message that way)
     * and the slopes the largest drift allows: around the line of slope 1 through the interval's middle, those
     * slopes everywhere, no curvature; INCOMPLETE while an end is missing, FAIL where the two cross.
     */
    public static LinkEstimate datasheet(LinkKey key, long t, BigDecimal lo, BigDecimal hi, double minSlope,
            double maxSlope) {
        if (hi == null || lo == null) {
            return unusable(key, LinkQuality.INCOMPLETE);
        }
        if (hi.compareTo(lo) < 0) {
            return unusable(key, LinkQuality.FAIL);
        }
        ClockMap map = ClockMap.through(t, DoubleDouble.of(hi.add(lo).divide(BigDecimal.valueOf(2))),
                DoubleDouble.ONE);
        BigDecimal at = map.apply(t).toBigDecimal();
        return new LinkEstimate(key, LinkQuality.ACCURATE, map, maxSlope - minSlope, minSlope, maxSlope, t,
                Math.max(0, picos(hi.subtract(at))), Math.max(0, picos(at.subtract(lo))), 0, 0);
    }

    /**
     * The current state of a link with its bounds at time t of a's clock rather than at its latest: where t lies
     * inside the link's data, the corridor there is narrower than carried from the end [Poirier 2010, §3.1].
     *
     * @throws IllegalArgumentException unless {@link ConvexHullLink#slopeRangeHoldsAt}(t)
     */
    public static LinkEstimate at(LinkKey key, ConvexHullLink link, long t) {
        if (!link.slopeRangeHoldsAt(t)) {
            throw new IllegalArgumentException(key + ": the slope range does not hold at " + t);
        }
        LinkEstimate e = of(key, link);
        if (e.aToB == null) {
            return e;
        }
        LinkBounds b = link.boundsAt(t);
        return new LinkEstimate(key, e.quality, e.aToB, e.slopeAccuracy, e.minSlope, e.maxSlope, t, picos(b.upNs()),
                picos(b.downNs()), e.curvature, e.step, e.excursionPs);
    }

    /**
     * This estimate with the bounds at {@code link}'s latest time: {@link #of} of the link when this was taken
     * from it at the same {@link ConvexHullLink#version()}, without recomputing what only the corridor decides (all
     * of it again if the estimate changed with the latest time).
     */
    public LinkEstimate atLatest(ConvexHullLink link) {
        if (aToB == null) {
            return this;
        }
        if (!aToB.equals(link.estimate())) {
            return of(key, link); // the estimate turned to or from the straight fit (ConvexHullLink#fitted)
        }
        LinkBounds b = link.boundsAtLatest();
        return new LinkEstimate(key, quality, aToB, slopeAccuracy, minSlope, maxSlope, b.t(), picos(b.upNs()),
                picos(b.downNs()), curvature, step, excursionPs);
    }

    private static long picos(BigDecimal ns) {
        if (ns == null) {
            return UNBOUNDED;
        }
        java.math.BigInteger ps = ns.movePointRight(3).setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return ps.bitLength() >= 63 ? UNBOUNDED : ps.longValueExact();
    }

    /**
     * The width of the bounds at the latest time less twice the excursion on each side, ps: about the width of the
     * pairs' own interval, which fresh pairs narrow and the estimate moves within — to compare changes with. Under an
     * excursion Φ the bounds are the curve's, from pairs each moved outward by Φ (2Φ wider), widened by Φ on each
     * side: constants that would dilute every change.
     */
    public double curveWidthPs() {
        return Math.max(0, (double) upPs + downPs - 4.0 * excursionPs);
    }

    /** Whether both bounds and both slope limits are known: the link bounds b's clock at any time of a's. */
    public boolean bounded() {
        return quality == LinkQuality.ACCURATE && upPs != UNBOUNDED && downPs != UNBOUNDED && minSlope > 0
                && maxSlope >= minSlope && maxSlope < Double.POSITIVE_INFINITY;
    }

    /**
     * An upper bound, in ps, of how far the relation lies above the estimate at time x of a's clock: {@link #upPs}
     * at the latest time, growing by (maxSlope − slope)·(x − latest) after it and by (slope − minSlope)·(latest − x)
     * before it — the relation's slope lies in [minSlope, maxSlope] at the latest time (for linear clocks the
     * corridor's envelope is L_max after it and convex before it) — plus ρ′(x − latest)²/2, how far the relation may
     * turn away from its slope there. {@link #UNBOUNDED} unless {@link #bounded()}.
     */
    public long upAtPs(long x) {
        return bounded() ? envelopePs(upPs, x, latestNs, maxSlope, minSlope, aToB.slope().hi(), aToB.slope().lo(),
                curvature) : UNBOUNDED;
    }

    /** The same for the relation below the estimate ({@link #downPs} at the latest time). */
    public long downAtPs(long x) {
        return bounded() ? envelopePs(downPs, x, latestNs, minSlope, maxSlope, aToB.slope().hi(), aToB.slope().lo(),
                curvature) : UNBOUNDED;
    }

    /**
     * A side's bound at x from its bound at the latest time: plus |slope limit − the estimate's slope (s, sl)|·|x −
     * latest|, with the limit {@code after} the latest time and {@code before} it, plus curvature·(x − latest)²/2,
     * rounded up.
     */
    static long envelopePs(long boundPs, long x, long latestNs, double after, double before, double s, double sl,
            double curvature) {
        long d = x - latestNs;
        if (((x ^ latestNs) & (x ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return UNBOUNDED;
        }
        // after − s and s − before are exact (Sterbenz: both near 1); lo is far below their ulp but not ignored.
        double rate = d >= 0 ? Math.abs(after - s - sl) : Math.abs(s - before + sl);
        long grown = Bounds.add(boundPs, Bounds.scaleUp(Math.abs(d) * 1000, Math.nextUp(rate)));
        return curvature == 0 ? grown
                : Bounds.add(grown, Bounds.scaleUp(Math.abs(d) * 1000, Math.nextUp(curvature * Math.abs(d) / 2)));
    }

    /** The larger of the two bounds, in picoseconds. */
    public long widestPs() {
        return Math.max(upPs, downPs);
    }
}
