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
 * What the network core needs of one link a~b: its quality, the estimate a→b, the slope accuracy and smallest
 * compatible slope (doubles: they only rank links and scale bounds, rounded the safe way), and Poirier's bounds at
 * the link's latest time in picoseconds of b's clock ({@link #UNBOUNDED} where the corridor is open).
 */
public record LinkEstimate(LinkKey key, LinkQuality quality, ClockMap aToB, double slopeAccuracy, double minSlope,
        long upPs, long downPs) {

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

    /** An ACCURATE link with the given estimate, slope range and bounds. */
    public static LinkEstimate accurate(LinkKey key, ClockMap aToB, double slopeAccuracy, double minSlope, long upPs,
            long downPs) {
        return new LinkEstimate(key, LinkQuality.ACCURATE, aToB, slopeAccuracy, minSlope, upPs, downPs);
    }

    /** A link that cannot take part (ABSENT, INCOMPLETE or FAIL): it leaves the graph. */
    public static LinkEstimate unusable(LinkKey key, LinkQuality quality) {
        return new LinkEstimate(key, quality, null, Double.NaN, Double.NaN, UNBOUNDED, UNBOUNDED);
    }

    /** The current state of a link of the link core, with {@link ConvexHullLink#quality()} as its quality. */
    public static LinkEstimate of(LinkKey key, ConvexHullLink link) {
        LinkQuality q = link.quality();
        if (q != LinkQuality.ACCURATE && q != LinkQuality.APPROXIMATE) {
            return unusable(key, q);
        }
        return new LinkEstimate(key, q, link.estimate(), link.slopeAccuracyValue(), link.minSlopeBelow(), UNBOUNDED,
                UNBOUNDED).atLatest(link);
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
        return new LinkEstimate(key, quality, aToB, slopeAccuracy, minSlope, picos(b.upNs()), picos(b.downNs()));
    }

    private static long picos(BigDecimal ns) {
        if (ns == null) {
            return UNBOUNDED;
        }
        java.math.BigInteger ps = ns.movePointRight(3).setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return ps.bitLength() >= 63 ? UNBOUNDED : ps.longValueExact();
    }

    /** The larger of the two bounds, in picoseconds. */
    public long widestPs() {
        return Math.max(upPs, downPs);
    }
}
