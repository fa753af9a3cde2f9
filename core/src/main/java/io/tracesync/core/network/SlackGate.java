package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;

/**
 * Which link summaries the network must apply, of those the links let through ({@link SummaryGate}). A node's interval
 * is a shortest-path distance over every link's constraints (docs/NETWORK-CORE.md), so a link's news moves no interval
 * while it tightens each of the link's constraints by no more than that constraint's slack at the last evaluation
 * ({@link NetworkIntervals.Result#slack}: how far it lies from every node's tightest path); the summary the network
 * holds then stays, valid and only wider. Of links on a tightest path (no slack) every summary counts. Besides, a
 * summary counts where its quality or boundedness changed, its link restarted since the one held (that one no longer
 * holds), the link's slack is unknown (new, or the components changed shape), or its estimate moved from the held
 * one's, carried, by more than {@code minChange}/{@value #ESTIMATE_SPREAD} of its width (without the offset excursion,
 * {@link LinkEstimate#curveWidthPs}): the network estimate is a least-squares fit over every link's estimate, which a
 * held summary's would lead astray.
 */
public final class SlackGate {

    /** How many times smaller than {@code minChange} a share of the width an estimate may move unheard. */
    static final double ESTIMATE_SPREAD = 8;
    /** The slopes of two clocks lie within 10^-3 of 1: a tightening in ps of b's clock, in the reference's. */
    private static final double SCALE = 1 - 1e-3;

    private final double share;
    private final long[] slack = new long[4];

    /** @param minChange the links' {@code links.min.change}: above 0 */
    public SlackGate(double minChange) {
        if (!(minChange > 0)) {
            throw new IllegalArgumentException("the slack gate needs a minimum change above 0: " + minChange);
        }
        this.share = minChange / ESTIMATE_SPREAD;
    }

    /**
     * Whether {@code network} must apply {@code now}, a summary of a link that last restarted at {@code restartNs}
     * (on its a end's clock, {@code Long.MIN_VALUE}: never), in place of the estimate it holds, whose restart
     * {@code restarts} noted.
     */
    public boolean matters(NetworkSync network, Restarts restarts, LinkEstimate now, long restartNs) {
        LinkEstimate held = network.estimate(now.key(), slack);
        return matters(held, slack, held != null && restartNs != restarts.restartOf(now.key()), now);
    }

    /**
     * Whether the network must apply {@code now} in place of {@code held}, the estimate it holds of the link (null:
     * none), whose constraints' slack at the last evaluation is {@code slack} ({@link NetworkSync#estimate(int,
     * long[])}; {@code slack[0] < 0}: unknown); {@code restarted}: the link restarted since the held one.
     */
    public boolean matters(LinkEstimate held, long[] slack, boolean restarted, LinkEstimate now) {
        if (held == null || slack[0] < 0 || held.quality() != now.quality() || !held.bounded() || !now.bounded()
                || restarted) {
            return true;
        }
        long t = now.latestNs();
        double movedPs = moved(held.aToB(), now.aToB(), t) * 1000;
        if (Math.abs(movedPs) > share * now.curveWidthPs()) {
            return true;
        }
        double tighterUp = movedPs + held.upAtPs(t) - now.upAtPs(t);
        double tighterDown = -movedPs + held.downAtPs(t) - now.downAtPs(t);
        if (tighterUp * SCALE > slack[0] || tighterDown * SCALE > slack[1]) {
            return true;
        }
        // the held slope range turns with the clock model on its way to t; ln a − ln b = (a − b)/b to 10^-3 of it
        double turn = held.curvature() * Math.abs((double) t - held.latestNs());
        double tighterMax = (held.maxSlope() + turn - now.maxSlope()) / now.maxSlope() * NetworkIntervals.LOG_UNIT;
        double tighterMin = (now.minSlope() - held.minSlope() + turn) / now.minSlope() * NetworkIntervals.LOG_UNIT;
        return tighterMax * SCALE > slack[2] || tighterMin * SCALE > slack[3];
    }

    /**
     * f(t) − g(t) in ns for two maps of the same relation: the differences of their parts are exact (Sterbenz), or
     * far below a nanosecond where the maps are that far apart.
     */
    private static double moved(ClockMap f, ClockMap g, long t) {
        double slope = (f.slope().hi() - g.slope().hi()) + (f.slope().lo() - g.slope().lo());
        double offset = (f.offset().hi() - g.offset().hi()) + (f.offset().lo() - g.offset().lo());
        return slope * t + offset;
    }
}
