package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which of a link's states the network core must hear of: after each pair, the link's estimate if it changed
 * enough since the one last let through — its quality, or its bounds, estimate or slope range by more than
 * {@code minChange} (see {@link #matters}) — else nothing. The link step of the stream and {@code evaluate}'s
 * replay both pass their links through it, so the evaluation measures what the stream publishes. Most pairs change
 * nothing [Jabbarifar 2013, §3.7]: the hulls settle, so summaries are sparse.
 */
public final class SummaryGate {

    /** The application's default {@code links.min.change}. */
    public static final double DEFAULT_MIN_CHANGE = 0.01;

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

    /** After a pair changed {@code link}: its estimate if the network core must hear of it, else null. */
    public LinkEstimate offer(LinkKey key, ConvexHullLink link) {
        LinkEstimate before = emitted.get(key);
        Computed last = computed.get(key);
        boolean sameCorridor = last != null && last.link == link && last.version == link.version();
        if (sameCorridor && before != null && onlyAged(before, last, link.latestX())) {
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
     * Whether a link whose corridor did not change since {@code last} was computed can be left alone without
     * computing its bounds at {@code latestX}: no bound can have moved from {@code before}, the one emitted, by more
     * than {@code minChange} of it. The latest time is at or beyond every hull point, where the envelopes are
     * L_min and L_max (Poirier 2010 §3.1), so a bound moves with it by at most the slope accuracy α_max − α_min
     * times the distance (plus the change of the clock model's allowance), plus the rounding to the picosecond:
     * the summaries emitted are those of exact bounds for every pair (LinkProcessorTest, SummaryGateTest), while consecutive pairs
     * of a settled link cost a comparison each.
     */
    private boolean onlyAged(LinkEstimate before, Computed last, long latestX) {
        LinkEstimate at = last.estimate;
        if (minChange == 0 || Double.isNaN(at.slopeAccuracy())) {
            return false;
        }
        // in picoseconds: 1e-9 above the doubles' rounding, one for the ceiling to the picosecond, one for the sum's;
        // under the clock model the allowance ε(t) of a window of length W moves by at most ρ′W/2 per ns, one more
        double rate = at.slopeAccuracy() + at.curvature() * last.link.windowNs() / 2;
        double moved = rate * Math.abs((double) latestX - last.atX) * 1000 * (1 + 1e-9) + (at.curvature() > 0 ? 3 : 2);
        return within(before.upPs(), at.upPs(), moved) && within(before.downPs(), at.downPs(), moved);
    }

    private boolean within(long beforePs, long atPs, double moved) {
        return beforePs != LinkEstimate.UNBOUNDED && atPs != LinkEstimate.UNBOUNDED
                && Math.abs((double) atPs - beforePs) + moved <= minChange * beforePs;
    }

    /**
     * Whether the network core must hear of the change from {@code before} to {@code now}: a new quality, a bound
     * moved by more than {@code minChange} of itself, the estimate moved at the latest time by more than that
     * fraction of the interval's width, or the slope range's ends or width by more than that fraction of its width
     * (with {@code minChange} 0, any change). A summary held back still holds: its bounds, carried to any later time
     * by its slope range and the clock model, contain the relation (docs/LINK-CORE.md).
     */
    public boolean matters(LinkEstimate before, LinkEstimate now) {
        if (before == null) {
            return true;
        }
        if (before.quality() != now.quality() || (before.aToB() == null) != (now.aToB() == null)) {
            return true;
        }
        if (minChange == 0 || before.aToB() == null || !now.bounded() || !before.bounded()) {
            if (!Objects.equals(before.aToB(), now.aToB())
                    || Double.compare(before.slopeAccuracy(), now.slopeAccuracy()) != 0
                    || Double.compare(before.minSlope(), now.minSlope()) != 0
                    || Double.compare(before.maxSlope(), now.maxSlope()) != 0) {
                return true;
            }
        } else {
            double widthPs = (double) now.upPs() + now.downPs();
            double movedPs = before.aToB().apply(now.latestNs()).subtract(now.aToB().apply(now.latestNs())).hi()
                    * 1000;
            double slopes = now.maxSlope() - now.minSlope();
            if (Math.abs(movedPs) > minChange * widthPs
                    || Math.abs(before.minSlope() - now.minSlope()) > minChange * slopes
                    || Math.abs(before.maxSlope() - now.maxSlope()) > minChange * slopes
                    || Math.abs(before.slopeAccuracy() - now.slopeAccuracy()) > minChange * now.slopeAccuracy()) {
                return true;
            }
        }
        return changed(before.upPs(), now.upPs()) || changed(before.downPs(), now.downPs());
    }

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
