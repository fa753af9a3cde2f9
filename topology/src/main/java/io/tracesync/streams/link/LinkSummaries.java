package io.tracesync.streams.link;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.Line;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.Quality;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.DatasheetBounds;
import io.tracesync.core.link.ExactLine;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.network.LinkEstimate;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** A link's state as the {@link LinkSummary} record, and back to what the network core needs, bit for bit. */
public final class LinkSummaries {

    private LinkSummaries() {
    }

    public static LinkSummary of(LinkKey key, ConvexHullLink link, LinkEstimate e) {
        return LinkSummary.newBuilder()
                .setA(key.a()).setB(key.b())
                .setQuality(Quality.valueOf(e.quality().name()))
                .setMinLine(line(link.minLine()))
                .setMaxLine(line(link.maxLine()))
                .setEstimate(e.aToB() == null ? null : clockMap(e.aToB()))
                .setSlopeAccuracy(Double.isNaN(e.slopeAccuracy()) ? null : e.slopeAccuracy())
                .setMinSlope(Double.isNaN(e.minSlope()) ? null : e.minSlope())
                .setLatestNs(link.latestX())
                .setUpPs(bound(e.upPs()))
                .setDownPs(bound(e.downPs()))
                .setPairs(link.pairs())
                .setHullPoints(link.hullPoints())
                .setStalePairs(link.stale())
                .setFailures(link.failures())
                .setEpoch(link.epoch())
                .setMaxSlope(Double.isNaN(e.maxSlope()) ? null : e.maxSlope())
                .setCurvaturePpbPerS(link.options().carriedCurvaturePpbPerS())
                .setStepPpb(link.options().stepPpb())
                .setExcursionPs(link.options().excursionPs())
                .setWindowNs(link.windowNs())
                .setObservedCurvaturePpbPerS(Double.isNaN(link.observedTurnPpbPerS()) ? null
                        : link.observedTurnPpbPerS())
                .setRestartedNs(link.restartedNs() == Long.MIN_VALUE ? null : link.restartedNs())
                .setDatasheetUpPs(datasheetPs(link, e, true))
                .setDatasheetDownPs(datasheetPs(link, e, false))
                .setObservedStepPpb(Double.isNaN(link.observedStepPpb()) ? null : link.observedStepPpb())
                .build();
    }

    /**
     * The datasheet bound above ({@code up}) or below the estimate at the latest time, ps rounded up; null without
     * one (no largest drift, no estimate, or no message that way since the last restart).
     */
    private static Long datasheetPs(ConvexHullLink link, LinkEstimate e, boolean up) {
        DatasheetBounds d = link.datasheet();
        if (d == null || e.aToB() == null) {
            return null;
        }
        long t = link.latestX();
        BigDecimal bound = up ? d.upperAt(t) : d.lowerAt(t);
        if (bound == null) {
            return null;
        }
        BigDecimal at = e.aToB().apply(t).toBigDecimal();
        java.math.BigInteger ps = (up ? bound.subtract(at) : at.subtract(bound)).movePointRight(3)
                .setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return ps.bitLength() < 63 ? ps.longValueExact() : null;
    }

    /** When the summary's link last restarted, on its a end's clock; {@code Long.MIN_VALUE}: never. */
    public static long restartedNs(LinkSummary s) {
        return s.getRestartedNs() == null ? Long.MIN_VALUE : s.getRestartedNs();
    }

    /** The weight the forest held for a stored summary where that was not its rule's; NaN: its rule's. */
    public static double forestWeight(LinkSummary s) {
        return s.getForestWeight() == null ? Double.NaN : s.getForestWeight();
    }

    /**
     * The network core's view of a summary under the datasheet alone, a largest drift of {@code maxDriftPpm}:
     * {@link LinkEstimate#datasheet} from its interval [estimate − datasheet_down, estimate + datasheet_up] at its
     * latest time; INCOMPLETE without one.
     */
    public static LinkEstimate datasheetEstimate(LinkSummary s, double maxDriftPpm) {
        LinkKey key = new LinkKey(s.getA(), s.getB());
        if (s.getEstimate() == null || s.getDatasheetUpPs() == null || s.getDatasheetDownPs() == null) {
            return LinkEstimate.unusable(key, LinkQuality.INCOMPLETE);
        }
        long t = s.getLatestNs();
        BigDecimal at = PublishedFactor.clockMap(s.getEstimate()).apply(t).toBigDecimal();
        return LinkEstimate.datasheet(key, t, at.subtract(BigDecimal.valueOf(s.getDatasheetDownPs(), 3)),
                at.add(BigDecimal.valueOf(s.getDatasheetUpPs(), 3)), DatasheetBounds.minSlope(maxDriftPpm),
                DatasheetBounds.maxSlope(maxDriftPpm));
    }

    /** The network core's view of a summary: equal to {@link LinkEstimate#of} on the link it came from. */
    public static LinkEstimate estimate(LinkSummary s) {
        LinkQuality q = LinkQuality.valueOf(s.getQuality().name());
        LinkKey key = new LinkKey(s.getA(), s.getB());
        if (s.getEstimate() == null) {
            return LinkEstimate.unusable(key, q);
        }
        return new LinkEstimate(key, q, PublishedFactor.clockMap(s.getEstimate()),
                s.getSlopeAccuracy() == null ? Double.NaN : s.getSlopeAccuracy(),
                s.getMinSlope() == null ? Double.NaN : s.getMinSlope(),
                maxSlope(s), s.getLatestNs(),
                s.getUpPs() == null ? LinkEstimate.UNBOUNDED : s.getUpPs(),
                s.getDownPs() == null ? LinkEstimate.UNBOUNDED : s.getDownPs(),
                LinkOptions.perNs(s.getCurvaturePpbPerS()), s.getStepPpb() * 1e-9, s.getExcursionPs());
    }

    /** The summary's largest slope; records written before it was carried give the max line's. */
    private static double maxSlope(LinkSummary s) {
        if (s.getMaxSlope() != null) {
            return s.getMaxSlope();
        }
        return s.getMaxLine() == null ? Double.NaN : exactLine(s.getMaxLine()).slopeAbove();
    }

    /** A core map as the records carry it (read back by {@link PublishedFactor#clockMap}). */
    public static ClockMap clockMap(io.tracesync.core.numeric.ClockMap m) {
        return new ClockMap(m.slope().hi(), m.slope().lo(), m.offset().hi(), m.offset().lo());
    }

    private static ExactLine exactLine(Line l) {
        return new ExactLine(l.getX1(), l.getY1(), l.getX2(), l.getY2());
    }

    private static Line line(ExactLine l) {
        return l == null ? null : new Line(l.x1(), l.y1(), l.x2(), l.y2());
    }

    private static Long bound(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? null : ps;
    }
}
