package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkBounds;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What the network core needs of one link a~b: its quality, the estimate a→b, the slope accuracy and the smallest
 * and largest compatible slopes (doubles: they rank links and scale bounds, rounded the safe way: the true slope
 * lies in [minSlope, maxSlope]), the link's latest time {@code latestNs} on a's clock and Poirier's bounds there in
 * picoseconds of b's clock ({@link #UNBOUNDED} where the corridor is open).
 *
 * <p>From these the corridor's envelopes are known at any time of a's clock: beyond the latest time they are L_min
 * and L_max exactly, and before it the envelopes' slopes lie in [minSlope, maxSlope] (see {@link #upAtPs}).
 */
public record LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
        double maxSlope, long latestNs, long upPs, long downPs) {

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
                link.maxSlopeAbove(), link.latestX(), UNBOUNDED, UNBOUNDED).atLatest(link);
    }

    /**
     * This estimate with the bounds at {@code link}'s latest time: {@link #of} of the link when this was taken
     * from it at the same {@link ConvexHullLink#version()}, without recomputing what only the corridor decides.
     */
    public LinkEstimate atLatest(ConvexHullLink link) {
        if (aToB == null) {
            return this;
        }
        LinkBounds b = link.boundsAtLatest();
        return new LinkEstimate(key, quality, aToB, slopeAccuracy, minSlope, maxSlope, b.t(), picos(b.upNs()),
                picos(b.downNs()));
    }

    private static long picos(BigDecimal ns) {
        if (ns == null) {
            return UNBOUNDED;
        }
        java.math.BigInteger ps = ns.movePointRight(3).setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return ps.bitLength() >= 63 ? UNBOUNDED : ps.longValueExact();
    }

    /** Whether both bounds and both slope limits are known: the link bounds b's clock at any time of a's. */
    public boolean bounded() {
        return quality == LinkQuality.ACCURATE && upPs != UNBOUNDED && downPs != UNBOUNDED && minSlope > 0
                && maxSlope >= minSlope && maxSlope < Double.POSITIVE_INFINITY;
    }

    /**
     * An upper bound, in ps, of how far the corridor's upper envelope lies above the estimate at time x of a's
     * clock: {@link #upPs} at the latest time, growing by (maxSlope − slope)·(x − latest) after it, where the
     * envelope is L_max, and by at most (slope − minSlope)·(latest − x) before it, where its slope is at least
     * minSlope (the envelope is convex). {@link #UNBOUNDED} unless {@link #bounded()}.
     */
    public long upAtPs(long x) {
        return bounded() ? envelopePs(upPs, x, latestNs, maxSlope, minSlope, aToB.slope().hi(), aToB.slope().lo())
                : UNBOUNDED;
    }

    /** The same for the lower envelope below the estimate ({@link #downPs} at the latest time). */
    public long downAtPs(long x) {
        return bounded() ? envelopePs(downPs, x, latestNs, minSlope, maxSlope, aToB.slope().hi(), aToB.slope().lo())
                : UNBOUNDED;
    }

    /**
     * A side's bound at x from its bound at the latest time: plus |slope limit − the estimate's slope (s, sl)|·|x −
     * latest|, rounded up, with the limit {@code after} the latest time and {@code before} it.
     */
    static long envelopePs(long boundPs, long x, long latestNs, double after, double before, double s, double sl) {
        long d = x - latestNs;
        if (((x ^ latestNs) & (x ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return UNBOUNDED;
        }
        // after − s and s − before are exact (Sterbenz: both near 1); lo is far below their ulp but not ignored.
        double rate = d >= 0 ? Math.abs(after - s - sl) : Math.abs(s - before + sl);
        return Bounds.add(boundPs, Bounds.scaleUp(Math.abs(d) * 1000, Math.nextUp(rate)));
    }

    /** The larger of the two bounds, in picoseconds. */
    public long widestPs() {
        return Math.max(upPs, downPs);
    }
}
