package io.tracesync.offline;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.TreeSet;

/**
 * A link as it answers for a time t of the past once pairs after t are known. The core is fed its pairs up to t + h
 * for h = 0 — the answer the stream gave live at t, carried from the link's latest pair before it — and for
 * look-aheads of a quarter, a half and a whole of each window (and all the pairs): where t then lies inside the
 * answering epoch, its corridor and slope range hold at t ({@link ConvexHullLink#slopeRangeHoldsAt}), and the
 * corridor is narrowest inside the data, not at its end [Poirier 2010, §3.1]. Every candidate bounds the relation at
 * t, so their intersection does: the answer is that intersection around the live estimate moved inside it (so never
 * wider than live nor farther from the truth), with the slope range of the narrowest candidate.
 */
final class LinksAround {

    private final CanonicalPairs pairs;
    private final LinkOptions options;
    private final long[] lookAheads;

    LinksAround(CanonicalPairs pairs, LinkOptions options) {
        this.pairs = pairs;
        this.options = options;
        TreeSet<Long> hs = new TreeSet<>();
        for (long w : options.windows()) {
            if (w > 0) {
                hs.add(w / 4);
                hs.add(w / 2);
                hs.add(w);
            }
        }
        hs.add(Long.MAX_VALUE);
        this.lookAheads = hs.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The link's estimate for time t of a's clock: with {@code live}, from its pairs up to t alone; otherwise the
     * narrowest at t of that and the look-aheads'.
     */
    LinkEstimate at(LinkKey key, long t, boolean live) {
        LinkEstimate best = LinkEstimate.of(key, pairs.link(key, options, t));
        if (live) {
            return best;
        }
        LinkEstimate liveAnswer = best;
        long bestWidth = width(best, t);
        BigDecimal lo = lower(best, t);
        BigDecimal hi = upper(best, t);
        for (long h : lookAheads) {
            ConvexHullLink link = pairs.link(key, options, t > Long.MAX_VALUE - h ? Long.MAX_VALUE : t + h);
            if (!link.slopeRangeHoldsAt(t)) {
                continue;
            }
            LinkEstimate e = LinkEstimate.at(key, link, t);
            long w = width(e, t);
            if (w < bestWidth) {
                best = e;
                bestWidth = w;
            }
            lo = max(lo, lower(e, t));
            hi = min(hi, upper(e, t));
        }
        if (best.latestNs() != t || bestWidth == LinkEstimate.UNBOUNDED || lo.compareTo(hi) > 0) {
            return best; // the live answer, none bounded, or candidates that exclude each other: nothing to cut
        }
        // the live estimate where there is one (a short epoch's midline is noisier), moved into the intersection:
        // nearer the truth than live, as the intersection holds it
        LinkEstimate source = liveAnswer.bounded() ? liveAnswer : best;
        BigDecimal estimate = source.aToB().apply(t).toBigDecimal().max(lo).min(hi);
        ClockMap map = ClockMap.through(t, DoubleDouble.of(estimate), best.aToB().slope());
        BigDecimal at = map.apply(t).toBigDecimal();
        return new LinkEstimate(key, best.quality(), map, best.slopeAccuracy(), best.minSlope(), best.maxSlope(), t,
                picosUp(hi.subtract(at)), picosUp(at.subtract(lo)), best.curvature(), best.step(),
                best.excursionPs());
    }

    /** The lower end of the link's interval at t, ns; null while open. */
    private static BigDecimal lower(LinkEstimate e, long t) {
        long down = e.downAtPs(t);
        return down == LinkEstimate.UNBOUNDED ? null
                : e.aToB().apply(t).toBigDecimal().subtract(BigDecimal.valueOf(down, 3));
    }

    /** The upper end of the link's interval at t, ns; null while open. */
    private static BigDecimal upper(LinkEstimate e, long t) {
        long up = e.upAtPs(t);
        return up == LinkEstimate.UNBOUNDED ? null : e.aToB().apply(t).toBigDecimal().add(BigDecimal.valueOf(up, 3));
    }

    private static BigDecimal max(BigDecimal x, BigDecimal y) {
        return x == null ? y : y == null ? x : x.max(y);
    }

    private static BigDecimal min(BigDecimal x, BigDecimal y) {
        return x == null ? y : y == null ? x : x.min(y);
    }

    /**
     * A distance in ns as ps rounded up, plus one for the double-double rounding of the maps' values (below 10⁻³ ps
     * at any nanosecond timestamp); at least 0.
     */
    private static long picosUp(BigDecimal ns) {
        return Math.max(0, ns.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact() + 1);
    }

    /** The width of the link's bounds at t, ps; {@link LinkEstimate#UNBOUNDED} while a side is open. */
    private static long width(LinkEstimate e, long t) {
        long up = e.upAtPs(t);
        long down = e.downAtPs(t);
        return up == LinkEstimate.UNBOUNDED || down == LinkEstimate.UNBOUNDED || up > Long.MAX_VALUE - down
                ? LinkEstimate.UNBOUNDED : up + down;
    }
}
