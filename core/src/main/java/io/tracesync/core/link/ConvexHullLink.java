package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.Rational;
import java.util.Arrays;

/**
 * Clock synchronization of one link (a, b), a &lt; b: the fully incremental convex hull method [Jabbarifar 2013,
 * §3.6.4] with exact predicates, Poirier's guaranteed bounds, Ashton's minimum-delay correction, sliding windows
 * and a clock model.
 *
 * <p>Points have x = a's clock and y = b's clock. A message a-&gt;b gives (send_a, recv_b - minDelay_ab), above
 * the clock line; a message b-&gt;a gives (recv_a, send_b + minDelay_ba), below it (Ashton 1995 §4.2.2: the
 * minimum delay closes up the corridor).
 *
 * <p>Windows ({@link Window}): with linear clocks one, the horizon H; under the clock model ρ′ &gt; 0 several, each
 * 4 times the last up to H, each relaxed by the allowance its own length needs (docs/LINK-CORE.md, "Clocks that
 * bend"). The link answers from the window whose bounds are the narrowest at the latest time rounded down to a
 * tick of 1/16 of the shortest window — chosen again whenever a window's corridor changes or the tick moves, so the
 * choice is a function of the windows and the latest time, whatever order the pairs came in: a short window when
 * the clocks bend, a long one when they run straight. A pair older than every window is stale.
 *
 * <p>With known minimum delays straight windows (each length and the horizon, unrelaxed) give the estimate while
 * one agrees with the answering window ({@link #fitted()}); the bounds stay the answering window's. A
 * {@link RedundancyFilter} passes the usual pair, redundant everywhere, with one comparison.
 *
 * <p>Pairs that no line fits even with the allowance (a frequency step, a slew beyond the model, a clock jump)
 * contradict the model: every window starts again, empty, from the contradicting pair's time, and the link reports
 * FAIL until a window has an estimate again, so it recovers by itself. Without a horizon a failure is final and the
 * last good corridor is kept.
 */
public final class ConvexHullLink {

    /**
     * How many times narrower than the answering window's bounds the straight window's corridor must be for its fit
     * to be the estimate.
     */
    private static final double FIT_PRECISION = 2;
    /**
     * For how many of its lengths (at most a horizon) no pair may have contradicted a straight window for its fit to
     * be the estimate: the clocks must have run straight at its scale for a while. With 1, short fits come in
     * between the turns of a strong cycle, biased (docs/ACCURACY.md).
     */
    private static final long STRAIGHT_SPAN = 16;
    /** How far from the latest time the redundancy filter reaches, at most: a second of the usual pairs. */
    private static final long FILTER_REACH = 1_000_000_000L;
    /** Its least reach, ns. */
    private static final long FILTER_REACH_MIN = 1024;
    /** Pairs per filter interval below which its reach doubles, and above which it halves. */
    private static final long FILTER_FEW_PAIRS = 64;
    private static final long FILTER_MANY_PAIRS = 256;
    /** How many ticks ({@link #tick}) make the shortest window. */
    private static final long TICKS_PER_SHORTEST_WINDOW = 16;

    private final LinkOptions options;
    /** The clock model's windows, shortest first (one with linear clocks). */
    final Window[] windows;
    /**
     * Under the clock model with known minimum delays, the straight windows: one of each window's length and the
     * horizon, unrelaxed, as with linear clocks, shortest first. They bound nothing; the longest one's estimate that
     * agrees with the answering window is the link's (see {@link #fitted()}). None otherwise: with linear clocks the
     * one window is straight, and where delays are unknown their corridors are too loose to show that the clocks
     * bend, so their fits would be biased.
     */
    final Window[] straights;
    /** The windows, then the straight ones: every window a pair goes to. */
    private final Window[] all;
    /** When a pair last contradicted each straight window, MIN_VALUE if none did. */
    final long[] straightSince;
    private long fittedVersion = -1;
    /** The slope range of {@link #minSlopeBelow}, {@link #maxSlopeAbove} as of this version (-1: none yet). */
    private long rangeVersion = -1;
    private double rangeLow;
    private double rangeHigh;
    private long fittedAt;
    /** The straight window whose fit is the estimate, -1 for none. */
    private int fit = -1;
    boolean started;
    long latestX;
    long pairs;
    long stored;
    long stale;
    long failures;
    /** Pairs contradicted the model and no window has an estimate since: the link is FAIL. */
    boolean failing;
    /** The time on a's clock of the last pair that contradicted the model and restarted the windows (or MIN_VALUE). */
    long restartedAt = Long.MIN_VALUE;
    /** The window that answers: the narrowest at the latest tick (see {@link #choose}). */
    int answer;
    /**
     * The tick, 1/{@value #TICKS_PER_SHORTEST_WINDOW} of the shortest window, at whose multiples the windows' widths
     * are compared.
     */
    private final long tick;
    /** The latest time rounded down to the tick (MIN_VALUE until the first pair, also after decoding). */
    private long tickAt = Long.MIN_VALUE;
    /** Counts the changes of any window's corridor (see {@link #version()}). */
    private long version;
    /** The earliest time at which a window rotates its epochs: until then a later pair only moves the latest time. */
    private long rotationDue = Long.MIN_VALUE;
    /** Passes the usual pair, redundant in every epoch, at the cost of one comparison; null to test without. */
    private final RedundancyFilter filter;
    /** The interval under the datasheet alone ({@link LinkOptions#maxDriftPpm}); null without. */
    final DatasheetBounds datasheet;
    /** Pairs the filter passed. */
    long filtered;
    /** How far the filter reaches now: halved while it holds many pairs, doubled while few (see {@link #passes}). */
    private long filterReach = FILTER_REACH;
    private long pairsAtBuild;

    public ConvexHullLink(LinkOptions options) {
        this(options, true);
    }

    /** With {@code filtering} false every pair takes the exact path in every epoch (to test the filter against). */
    ConvexHullLink(LinkOptions options, boolean filtering) {
        this.options = options;
        this.filter = filtering ? new RedundancyFilter() : null;
        this.datasheet = options.maxDriftPpm() > 0 ? new DatasheetBounds(options.maxDriftPpm()) : null;
        long[] lengths = options.windows();
        this.windows = new Window[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            windows[i] = new Window(lengths[i], options.windowCurvaturePerNs(lengths[i]));
        }
        long[] straightLengths = !options.bending() || options.minDelayAtoBNs() == 0 && options.minDelayBtoANs() == 0
                ? new long[0] : lengths[lengths.length - 1] == options.horizonNs() ? lengths
                : Arrays.copyOf(lengths, lengths.length + 1);
        if (straightLengths.length > lengths.length) {
            straightLengths[lengths.length] = options.horizonNs();
        }
        this.straights = new Window[straightLengths.length];
        for (int i = 0; i < straights.length; i++) {
            straights[i] = new Window(straightLengths[i], 0);
        }
        this.straightSince = new long[straights.length];
        Arrays.fill(straightSince, Long.MIN_VALUE);
        this.all = Arrays.copyOf(windows, windows.length + straights.length);
        System.arraycopy(straights, 0, all, windows.length, straights.length);
        this.answer = lengths.length - 1;
        this.tick = Math.max(1, lengths[0] / TICKS_PER_SHORTEST_WINDOW);
    }

    public LinkOptions options() {
        return options;
    }

    /** A message a-&gt;b: sent at {@code sendA} on a's clock, received at {@code recvB} on b's clock. */
    public PairEffect addAtoB(long sendA, long recvB) {
        return add(true, sendA, shift(recvB, -options.minDelayAtoBNs()));
    }

    /** A message b-&gt;a: sent at {@code sendB} on b's clock, received at {@code recvA} on a's clock. */
    public PairEffect addBtoA(long sendB, long recvA) {
        return add(false, recvA, shift(sendB, options.minDelayBtoANs()));
    }

    private static long shift(long t, long delay) {
        try {
            return Math.addExact(t, delay);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("timestamp " + t + " overflows with minimum delay " + delay, e);
        }
    }

    private PairEffect add(boolean aToB, long x, long y) {
        pairs++;
        if (tickAt == Long.MIN_VALUE) {
            tickAt = Math.floorDiv(latestX, tick) * tick;
        }
        boolean changed = advance(x) | (windows.length > 1 && tickMoved());
        if (datasheet != null && x >= restartedAt) {
            datasheet.add(aToB, x, y); // a pair before the last restart is of the clocks before their step
        }
        Window top = windows[windows.length - 1];
        if (!options.hasHorizon() && top.older.failed) {
            return PairEffect.FAILED;
        }
        PairEffect effect = PairEffect.STALE;
        if (filter != null && passes(aToB, x, y)) {
            effect = PairEffect.REDUNDANT;
            filtered++;
        } else {
            boolean covered = filter != null && filter.covers(x);
            for (int i = 0; i < all.length; i++) {
                Window w = all[i];
                if (covered && filter.redundantIn(i, aToB, x, y)) {
                    effect = i >= windows.length || weight(PairEffect.REDUNDANT) <= weight(effect) ? effect
                            : PairEffect.REDUNDANT;
                    continue;
                }
                long v = w.version;
                PairEffect e = w.add(aToB, x, y, latestX);
                changed |= w.version != v;
                if (i < windows.length) {
                    effect = weight(e) > weight(effect) ? e : effect;
                } else if (e == PairEffect.FAILED) {
                    // the clocks are not straight over this length: the straight window starts again, a fit only
                    w.restartAt(x);
                    straightSince[i - windows.length] = x;
                    clearFilter();
                    covered = false;
                }
                if (covered && w.narrowed != 0) {
                    filter.narrowed(i, w.narrowed, aToB);
                }
            }
        }
        if (effect == PairEffect.STALE) {
            stale++;
        } else if (effect == PairEffect.NARROWED) {
            stored++;
        } else if (effect == PairEffect.FAILED) {
            failures++;
            if (options.hasHorizon()) {
                for (Window w : all) {
                    w.restartAt(x);
                }
                Arrays.fill(straightSince, x);
                clearFilter();
                failing = true;
                restartedAt = x;
                changed = true;
                if (datasheet != null) {
                    // a clock stepped before this pair: the older messages no longer bound the relation
                    datasheet.restart();
                    datasheet.add(aToB, x, y);
                }
            }
        }
        if (changed) {
            version++;
            choose();
        }
        return effect;
    }

    /**
     * Whether the filter shows the pair redundant in every epoch, building it first when it does not cover x: over
     * [latest − r/2, latest + r], r following the pair rate (halved while an interval held more than 256 pairs,
     * doubled while fewer than 64) within min(tick, 1 s, shortest window / 2), cut to the older epochs' ranges, to
     * the newer epochs' ranges or before them (a linear window's newer epoch starts after the latest time), and to
     * before the next rotation: every epoch takes all of the interval or none of it.
     */
    private boolean passes(boolean aToB, long x, long y) {
        if (!filter.covers(x)) {
            long seen = pairs - pairsAtBuild;
            pairsAtBuild = pairs;
            filterReach = seen < FILTER_FEW_PAIRS ? Math.min(2 * filterReach, FILTER_REACH)
                    : seen > FILTER_MANY_PAIRS ? Math.max(filterReach / 2, FILTER_REACH_MIN) : filterReach;
            long reach = windows[0].length == 0 ? filterReach
                    : Math.min(Math.min(tick, filterReach), windows[0].length / 2);
            if (rotationDue == Long.MIN_VALUE) {
                rotationDue = rotationDue();
            }
            long from = latestX >= Long.MIN_VALUE + reach ? latestX - reach / 2 : Long.MIN_VALUE;
            long to = Math.min(rotationDue - 1, latestX <= Long.MAX_VALUE - reach ? latestX + reach : Long.MAX_VALUE);
            for (Window w : all) {
                from = Math.max(from, w.olderFrom);
                if (w.newer != null && w.newerFrom <= latestX) {
                    from = Math.max(from, w.newerFrom);
                } else if (w.newer != null) {
                    to = Math.min(to, w.newerFrom - 1);
                }
            }
            if (x < from || x > to) {
                return false;
            }
            filter.build(all, from, to, y);
        }
        return filter.redundant(aToB, x, y) || filter.refresh(all, aToB) && filter.redundant(aToB, x, y);
    }

    /** Whether the latest time moved to another tick since the last call. */
    private boolean tickMoved() {
        if (latestX >= tickAt && Long.compareUnsigned(latestX - tickAt, tick) < 0) {
            return false;
        }
        tickAt = Math.floorDiv(latestX, tick) * tick;
        return true;
    }

    private void clearFilter() {
        if (filter != null) {
            filter.clear();
        }
    }

    private long rotationDue() {
        long due = Long.MAX_VALUE;
        for (Window w : all) {
            due = Math.min(due, w.rotatesAt());
        }
        return due;
    }

    /** A pair's effects over the windows combine as the strongest: FAILED, NARROWED, REDUNDANT, STALE. */
    private static int weight(PairEffect e) {
        return switch (e) {
            case STALE -> 0;
            case REDUNDANT -> 1;
            case NARROWED -> 2;
            case FAILED -> 3;
        };
    }

    /**
     * Moves the latest time forward; each window rotates its epochs when the older one has reached its end. Whether
     * a window's corridor changed.
     */
    private boolean advance(long x) {
        if (started && x <= latestX) {
            return false;
        }
        if (started && x < rotationDue) {
            latestX = x;
            return false;
        }
        clearFilter();
        boolean changed = false;
        boolean first = !started;
        started = true;
        latestX = x;
        for (Window w : all) {
            long v = w.version;
            w.advance(x, first);
            changed |= w.version != v;
        }
        rotationDue = rotationDue();
        return changed;
    }

    /**
     * Picks the answering window: of those of the best quality (ACCURATE before APPROXIMATE), the one whose bounds
     * are the narrowest (up + down) at the latest time rounded down to the tick, the longer on a tie; the longest
     * while none has an estimate. Clears the failure once a window has an estimate again.
     */
    private void choose() {
        if (windows.length == 1) {
            failing &= rank(windows[0]) == 2;
            return;
        }
        int best = windows.length - 1;
        int bestRank = rank(windows[best]);
        double bestWidth = bestRank < 2 ? width(windows[best]) : Double.NaN;
        for (int i = windows.length - 2; i >= 0; i--) {
            int r = rank(windows[i]);
            if (r > bestRank || r == 2) {
                continue;
            }
            double w = width(windows[i]);
            if (r < bestRank || w < bestWidth || (Double.isNaN(bestWidth) && !Double.isNaN(w))) {
                best = i;
                bestRank = r;
                bestWidth = w;
            }
        }
        answer = best;
        if (failing && bestRank < 2) {
            failing = false;
        }
    }

    /** 0 for an ACCURATE window, 1 for APPROXIMATE, 2 for one without estimate. */
    private static int rank(Window w) {
        return switch (w.quality()) {
            case ACCURATE -> 0;
            case APPROXIMATE -> 1;
            default -> 2;
        };
    }

    private double width(Window w) {
        return w.widthAt(tickAt);
    }

    private Window answering() {
        return windows[answer];
    }

    /**
     * The link's one quality, which every output reports: the answering window's, except that after pairs
     * contradicted the model the link is FAIL until a window has an estimate again (for good without a horizon).
     */
    public LinkQuality quality() {
        return failing ? LinkQuality.FAIL : answering().quality();
    }

    /** L_max of the answering window: the compatible line of largest slope, or null while unbounded. */
    public ExactLine maxLine() {
        return answering().older.maxLine();
    }

    /** L_min of the answering window: the compatible line of smallest slope, or null while unbounded. */
    public ExactLine minLine() {
        return answering().older.minLine();
    }

    /**
     * The conversion y = slope x + offset from a's clock to b's: Duda's bisector when ACCURATE, the best effort
     * of {@link DudaEstimator#bestEffort} when APPROXIMATE; after a final failure the last good one; else null
     * (also when the corridor only admits non-increasing lines, which no clock pair can have, or Duda's bisector
     * falls).
     */
    public ClockMap estimate() {
        return fitted() ? straights[fit].estimate() : answering().estimate();
    }

    /**
     * Whether the link's estimate is a straight window's fit: under the clock model with known minimum delays, the
     * longest straight window such that no pair has contradicted it for {@value #STRAIGHT_SPAN} of its lengths (at
     * most a horizon), it is ACCURATE, its corridor at the latest time is at least {@value #FIT_PRECISION} times
     * narrower than the answering window's bounds, its slope lies in the answering window's slope range (widened by
     * the model's turn) and its bounds lie inside the answering window's at the latest time. Clocks that run
     * straight for a while are then estimated as precisely as with linear clocks over that while, and bounded as the
     * model requires. A function of the windows and the latest time.
     */
    public boolean fitted() {
        if (straights.length == 0 || failing) {
            return false;
        }
        if (fittedVersion != version || fittedAt != latestX) {
            fittedVersion = version;
            fittedAt = latestX;
            fit = -1;
            for (int i = straights.length - 1; i >= 0 && fit < 0; i--) {
                fit = agrees(i) ? i : -1;
            }
        }
        return fit >= 0;
    }

    private boolean agrees(int i) {
        Window straight = straights[i];
        if (straightSince[i] != Long.MIN_VALUE
                && latestX - straightSince[i] < Math.min(STRAIGHT_SPAN * straight.length, options.horizonNs())) {
            return false;
        }
        Window a = answering();
        if (a.quality() != LinkQuality.ACCURATE || straight.quality() != LinkQuality.ACCURATE
                || !(straight.widthAt(latestX) * FIT_PRECISION <= a.widthAt(latestX))) {
            return false;
        }
        ClockMap fit = straight.estimate();
        double slope = fit.slope().hi();
        if (!(slope >= limitOf(a, -1) && slope <= limitOf(a, +1))) {
            return false;
        }
        LinkBounds b = a.boundsAt(latestX, fit);
        LinkBounds own = straight.boundsAt(latestX);
        return b.upNs() != null && b.downNs() != null && own.upNs() != null && own.downNs() != null
                && own.upNs().compareTo(b.upNs()) <= 0 && own.downNs().compareTo(b.downNs()) <= 0;
    }

    /**
     * Changes whenever a window's corridor may have changed (a narrowing pair, a failure, an epoch rotation or
     * restart), and with it the answering window. While it stays the same, so do the quality, L_min, L_max, the
     * slope range and the slope accuracy: only the latest time, and with it the bounds at it and whether the
     * estimate is the straight fit ({@link #fitted()}), can move. Held in memory only: a decoded link starts at 0.
     */
    public long version() {
        return version;
    }

    /** Slope accuracy alpha_max - alpha_min [Jabbarifar 2013, Eq. 3.13], or null unless both lines exist. */
    public Rational slopeAccuracy() {
        ExactLine min = minLine();
        ExactLine max = maxLine();
        return min == null || max == null ? null : max.slope().subtract(min.slope());
    }

    /** The link's interval under the datasheet alone ({@link LinkOptions#maxDriftPpm}); null without one. */
    public DatasheetBounds datasheet() {
        return datasheet;
    }

    /**
     * A slope below every slope the relation may have at the latest time (NaN while unbounded): the largest of the
     * windows' lower limits, each L_min's slope rounded down less the clock model's turn ρ′W/2 over the window's length
     * W (a chord's slope is within ρ′W/2 of the relation's at any time of its window). Every window holds the latest
     * time, so each limit holds there and the largest does: a summary carried by this range from the latest time
     * (see {@code LinkEstimate#upAtPs}) grows as slowly as the best window allows — under the clock model the 2-min
     * window's, narrower than the answering 30-s one's. A divisor that can only widen the bounds it scales.
     */
    public double minSlopeBelow() {
        return slopeLimit(-1);
    }

    /**
     * A slope above every slope the relation may have at the latest time (NaN while unbounded): the smallest of the
     * windows' upper limits, L_max's slope rounded up plus ρ′W/2. With {@link #minSlopeBelow()}, a slope range that
     * holds the true one.
     */
    public double maxSlopeAbove() {
        return slopeLimit(+1);
    }

    private double slopeLimit(int sign) {
        if (rangeVersion != version) {
            rangeVersion = version;
            rangeLow = slopeRange(-1);
            rangeHigh = slopeRange(+1);
        }
        return sign > 0 ? rangeHigh : rangeLow;
    }

    private double slopeRange(int sign) {
        Window a = answering();
        double own = limitOf(a, sign);
        if (Double.isNaN(own) || windows.length == 1 || Double.isNaN(limitOf(a, -sign))) {
            return own;
        }
        double low = Double.NEGATIVE_INFINITY;
        double high = Double.POSITIVE_INFINITY;
        for (Window w : windows) {
            double lo = limitOf(w, -1);
            double hi = limitOf(w, +1);
            if (!Double.isNaN(lo) && !Double.isNaN(hi)) {
                low = Math.max(low, lo);
                high = Math.min(high, hi);
            }
        }
        // disjoint ranges contradict the model; the answering window's range is the one the link answers from
        return !(low <= high) ? own : sign > 0 ? high : low;
    }

    /** A window's slope limit below ({@code sign} −1) or above (+1), NaN without that line. */
    private double limitOf(Window w, int sign) {
        DudaEstimator.Side side = sign > 0 ? w.maxSide() : w.minSide();
        return side == null ? Double.NaN
                : sign > 0 ? widened(side.slopeAbove(), +1, w) : widened(side.slopeBelow(), -1, w);
    }

    /** A window's slope limit widened by the turn ρ_W·W/2 its curvature allows over its length. */
    private double widened(double slope, int sign, Window w) {
        if (!options.bending()) {
            return slope;
        }
        double turn = Math.nextUp(w.curvature() * w.length / 2 * Window.ROUND_UP);
        return sign > 0 ? Math.nextUp(slope + turn) : Math.nextDown(slope - turn);
    }

    /**
     * {@link #slopeAccuracy()} as a double (NaN unless both lines exist), from the exact cross product: 0 exactly
     * for parallel lines, else within 2^-100 relative of the exact value before its last rounding.
     */
    public double slopeAccuracyValue() {
        DudaEstimator.Side min = answering().minSide();
        DudaEstimator.Side max = answering().maxSide();
        return min == null || max == null ? Double.NaN : DudaEstimator.slopeDifference(max, min).hi();
    }

    /**
     * Poirier's bounds Δ1 (up) and Δ2 (down) around the estimate at time t of a's clock, under the clock model
     * widened by its allowance at t; null without estimate.
     */
    public LinkBounds boundsAt(long t) {
        return answering().boundsAt(t, estimate());
    }

    /** The bounds at the latest time seen on a's clock, or null before the first pair. */
    public LinkBounds boundsAtLatest() {
        return started ? boundsAt(latestX) : null;
    }

    /**
     * How fast the clock relation turned, as the data show it, in ppb per second: the difference between the mean
     * slopes of the longest window's last two consecutive epochs over the distance of their centres (see
     * {@link Window#turn}); NaN with linear clocks and until that window's second epoch ended. Shorter windows would
     * answer sooner, but their slopes are too noisy to tell a turn of the model's size (a 30-s epoch's slope is
     * known to ppm, its turn to hundreds of ppb/s). An estimate to compare with the model's ρ′, not a bound.
     */
    public double observedCurvaturePpbPerS() {
        return windows[windows.length - 1].turn * 1e18;
    }

    /**
     * Whether {@link #boundsAt} and the slope range ({@link #minSlopeBelow}, {@link #maxSlopeAbove}) hold together at
     * time t of a's clock, so that t may anchor the link's estimate: always with linear clocks; under the clock model
     * within the answering epoch, from its start (or restart) to its end — the relation's slope anywhere in an epoch
     * of length W lies within ρ′W/2 of its chord's, as at its end (docs/LINK-CORE.md, "Clocks that bend").
     */
    public boolean slopeRangeHoldsAt(long t) {
        if (!options.bending()) {
            return true;
        }
        Window w = answering();
        return started && w.olderFrom <= t && t - w.olderStart <= w.length;
    }

    /** The length of the answering window in ns of a's clock (the horizon with linear clocks). */
    public long windowNs() {
        return answering().length;
    }

    /** Latest time seen on a's clock (valid once {@link #pairs()} &gt; 0). */
    public long latestX() {
        return latestX;
    }

    public long pairs() {
        return pairs;
    }

    /** Pairs that narrowed a window's answering corridor. */
    public long stored() {
        return stored;
    }

    /** Pairs older than every window before the latest time. */
    public long stale() {
        return stale;
    }

    /** Pairs that contradicted the model (made a corridor infeasible). */
    public long failures() {
        return failures;
    }

    /**
     * The time on a's clock of the last pair that contradicted the model (a clock step, a wrong match) and started
     * every window again, {@code Long.MIN_VALUE} if none did: the link's answers rest on its pairs from there on, and
     * the relation may have stepped between the pair before it and it.
     */
    public long restartedNs() {
        return restartedAt;
    }

    /** Epoch rotations and restarts of the longest window so far. */
    public long epoch() {
        return windows[windows.length - 1].epoch;
    }

    /** Hull points held by the answering corridor. */
    public int hullPoints() {
        return answering().older.hullPoints();
    }
}
