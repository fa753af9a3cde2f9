package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which of a link's states the network core must hear of: after each pair, the link's estimate if the one last let
 * through, carried to the link's latest time, has become wider than it by more than {@code minChange} of its width,
 * its quality changed, or its estimate or weight moved enough (see {@link #matters}) — else nothing. The link step
 * of the stream and {@code evaluate}'s replay both pass their links through it, so the evaluation measures what the
 * stream publishes. Most pairs change nothing [Jabbarifar 2013, §3.7], and a summary held back stays valid, only
 * wider as it ages: with linear clocks a settled link is heard of about once a minute, under the clock model every
 * few seconds (its slope is known to a few ppm at best, docs/PERFORMANCE.md).
 */
public final class SummaryGate {

    /** The application's default {@code links.min.change}. */
    public static final double DEFAULT_MIN_CHANGE = 0.1;
    /** How many times {@code minChange} the slope accuracy may move by before the forest must hear of it. */
    static final double WEIGHT_SPREAD = 4;

    private final double minChange;
    private final Map<LinkKey, LinkEstimate> emitted = new HashMap<>();
    /**
     * Each link's latest computed estimate, with the link version and latest time it was taken at: until the
     * version changes, only the bounds move, and by no more than the slope accuracy times the time moved.
     */
    private final Map<LinkKey, Computed> computed = new HashMap<>();

    public SummaryGate(double minChange) {
        if (!(minChange >= 0)) {
            throw new IllegalArgumentException("the minimum change must be at least 0: " + minChange);
        }
        this.minChange = minChange;
    }

    /**
     * The factor 1 + {@value #WEIGHT_SPREAD}·{@code minChange} by which a link's slope accuracy, its weight in the
     * spanning forest, may move before the forest must hear of it ({@link NetworkOptions#weightSpread}).
     */
    public static double weightSpread(double minChange) {
        return 1 + WEIGHT_SPREAD * minChange;
    }

    /** After a pair changed {@code link}: its estimate if the network core must hear of it, else null. */
    public LinkEstimate offer(LinkKey key, ConvexHullLink link) {
        LinkEstimate before = emitted.get(key);
        Computed last = computed.get(key);
        boolean sameCorridor = last != null && last.link == link && last.version == link.version();
        if (sameCorridor && before != null && Objects.equals(link.estimate(), last.estimate.aToB())
                && onlyAged(before, last, link.latestX())) {
            return null;
        }
        LinkEstimate now = sameCorridor ? last.estimate.atLatest(link) : LinkEstimate.of(key, link);
        computed.put(key, new Computed(link, link.version(), link.latestX(), now));
        if (!matters(before, now)) {
            return null;
        }
        emitted.put(key, now);
        return now;
    }

    /** The estimate last let through for the link, null if none. */
    public LinkEstimate emitted(LinkKey key) {
        return emitted.get(key);
    }

    /** Forgets every link (the state they came from was rolled back or restored). */
    public void clear() {
        emitted.clear();
        computed.clear();
    }

    private record Computed(ConvexHullLink link, long version, long atX, LinkEstimate estimate) {
    }

    /**
     * Whether a link whose corridor and estimate did not change since {@code last} was computed can be left alone
     * without computing its bounds at {@code latestX}: {@link #matters} says no even for the narrowest bounds they
     * can have there. The latest time is at or beyond every hull point, where the envelopes are L_min and L_max
     * (Poirier 2010 §3.1), so a bound moves with it by at most the slope accuracy α_max − α_min times the distance
     * (plus the change of the clock model's allowance), plus the rounding to the picosecond; a narrower interval
     * only makes the rule emit sooner. The summaries emitted are those of exact bounds for every pair
     * (LinkProcessorTest), while consecutive pairs of a settled link cost a few multiplications each.
     */
    private boolean onlyAged(LinkEstimate before, Computed last, long latestX) {
        LinkEstimate at = last.estimate;
        if (minChange == 0 || Double.isNaN(at.slopeAccuracy()) || !at.bounded() || !before.bounded()) {
            return false;
        }
        // in picoseconds: 1e-9 above the doubles' rounding, one for the ceiling to the picosecond, one for the sum's;
        // under the clock model the allowance ε(t) of a window of length W moves by at most ρ_W·W/2 per ns, one more
        long w = last.link.windowNs();
        double rate = at.slopeAccuracy() + last.link.options().windowCurvaturePerNs(w) * w / 2;
        double moved = rate * Math.abs((double) latestX - last.atX) * 1000 * (1 + 1e-9) + (at.curvature() > 0 ? 3 : 2);
        if (!(moved < Long.MAX_VALUE / 4.0)) {
            return false;
        }
        long shrink = (long) Math.ceil(moved);
        LinkEstimate narrowest = new LinkEstimate(at.key(), at.quality(), at.aToB(), at.slopeAccuracy(),
                at.minSlope(), at.maxSlope(), latestX, Math.max(0, at.upPs() - shrink),
                Math.max(0, at.downPs() - shrink), at.curvature(), at.step(), at.excursionPs());
        return !matters(before, narrowest);
    }

    /**
     * Whether the network core must hear of the change from {@code before}, the summary it holds, to {@code now}:
     * a new quality; the held summary's interval, carried to now's latest time by its slope range and the clock
     * model ({@link LinkEstimate#upAtPs}), wider than (1 + {@code minChange}) times now's there — fresh pairs
     * narrowed the link, or the held one has aged —; the estimate moved there by more than {@code minChange} of
     * now's width; or the slope accuracy, the link's weight in the spanning forest, by more than a factor
     * 1 + {@value #WEIGHT_SPREAD}·{@code minChange} (it only ranks the link among those of its cycles) — the widths
     * taken without the offset excursion, which widens every interval alike ({@link LinkEstimate#curveWidthPs}). With
     * {@code minChange} 0 any change; while either is not bounded on both sides, a new estimate or slope range, or a
     * bound moved by more than {@code minChange} of itself. A summary held back still holds: its bounds, carried to
     * any later time, contain the relation (docs/LINK-CORE.md) — only wider, and by at most that fraction at the
     * link's latest time.
     */
    public boolean matters(LinkEstimate before, LinkEstimate now) {
        if (before == null) {
            return true;
        }
        if (before.quality() != now.quality() || (before.aToB() == null) != (now.aToB() == null)) {
            return true;
        }
        if (minChange == 0 || before.aToB() == null || !now.bounded() || !before.bounded()) {
            return !Objects.equals(before.aToB(), now.aToB())
                    || Double.compare(before.slopeAccuracy(), now.slopeAccuracy()) != 0
                    || Double.compare(before.minSlope(), now.minSlope()) != 0
                    || Double.compare(before.maxSlope(), now.maxSlope()) != 0
                    || changed(before.upPs(), now.upPs()) || changed(before.downPs(), now.downPs());
        }
        long x = now.latestNs();
        // under an excursion Φ both intervals are 4Φ wider than the pairs' own: compared without it
        double widthPs = now.curveWidthPs();
        double carriedPs = (double) before.upAtPs(x) + before.downAtPs(x) - 4.0 * before.excursionPs();
        if (carriedPs > (1 + minChange) * widthPs) {
            return true;
        }
        double movedPs = before.aToB().apply(x).subtract(now.aToB().apply(x)).hi() * 1000;
        if (Math.abs(movedPs) > minChange * widthPs) {
            return true;
        }
        double spread = weightSpread(minChange);
        double was = before.slopeAccuracy();
        double is = now.slopeAccuracy();
        return Double.compare(was, is) != 0 && !(is <= spread * was && was <= spread * is);
    }

    /** A bound moved by more than {@code minChange} of itself, or to or from none. */
    private boolean changed(long beforePs, long nowPs) {
        if (beforePs == nowPs) {
            return false;
        }
        if (beforePs == LinkEstimate.UNBOUNDED || nowPs == LinkEstimate.UNBOUNDED) {
            return true;
        }
        return Math.abs(nowPs - beforePs) > minChange * beforePs;
    }
}
