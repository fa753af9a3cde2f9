package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.Rational;

/**
 * Clock synchronization of one link (a, b), a &lt; b: the fully incremental convex hull method [Jabbarifar 2013,
 * §3.6.4] with exact predicates, Poirier's guaranteed bounds, Ashton's minimum-delay correction, sliding windows
 * and a clock model.
 *
 * <p>Points have x = a's clock and y = b's clock. A message a-&gt;b gives (send_a, recv_b - minDelay_ab), above
 * the clock line; a message b-&gt;a gives (recv_a, send_b + minDelay_ba), below it (Ashton 1995 §4.2.2: the
 * minimum delay closes up the corridor).
 *
 * <p>Windows ({@link Window}, held by a {@link WindowSet}): with linear clocks one, the horizon H; under the clock
 * model ρ′ &gt; 0 several, each 4 times the last up to H, each relaxed by the allowance its own length needs
 * (docs/LINK-CORE.md, "Clocks that bend"). The link answers from the window whose bounds are the narrowest at the
 * latest time rounded down to a tick of 1/16 of the shortest window — chosen again whenever a window's corridor
 * changes or the tick moves, so the choice is a function of the windows and the latest time, whatever order the
 * pairs came in: a short window when the clocks bend, a long one when they run straight. A pair older than every
 * window is stale.
 *
 * <p>With known minimum delays straight windows ({@link StraightFits}: each length and the horizon, unrelaxed) give
 * the estimate while one agrees with the answering window ({@link #fitted()}); the bounds stay the answering
 * window's. Under an excursion Φ the model's windows move every point outward by Φ more and widen their bounds by Φ,
 * and unshifted windows ({@link PlainWindows}) give the estimate while they agree; without one the same choice runs
 * on the model's windows, so that a longer window's line a slew beyond the model ran through does not answer. A
 * {@link WindowFeed} hands each pair to every window, its {@link RedundancyFilter} passing the usual pair,
 * redundant everywhere, with one comparison.
 *
 * <p>Pairs that no line fits even with the allowance (a frequency step, a slew beyond the model, a clock jump)
 * contradict the model: every window starts again, empty, from the contradicting pair's time, and the link reports
 * FAIL until a window has an estimate again, so it recovers by itself. Without a horizon a failure is final and the
 * last good corridor is kept.
 */
public final class ConvexHullLink {

    private final LinkOptions options;
    /** The clock model's windows and the one that answers. */
    private final WindowSet windows;
    /** Whether the model keeps several windows, whose choice the tick of the latest time moves. */
    private final boolean severalWindows;
    /** The straight windows whose fits may be the estimate. */
    private final StraightFits straights;
    /** Under an excursion, the unshifted windows whose estimate may be the link's. */
    private final PlainWindows plain;
    /** Hands the pairs to every window. */
    private final WindowFeed feed;
    private boolean started;
    private long latestX;
    private long pairs;
    private long stored;
    private long stale;
    private long failures;
    /** Pairs contradicted the model and no window has an estimate since: the link is FAIL. */
    private boolean failing;
    /** The time on a's clock of the last pair that contradicted the model and restarted the windows (or MIN_VALUE). */
    private long restartedAt = Long.MIN_VALUE;
    /** Counts the changes of any window's corridor (see {@link #version()}). */
    private long version;
    /** The interval under the datasheet alone ({@link LinkOptions#maxDriftPpm}); null without. */
    private final DatasheetBounds datasheet;

    /**
     * What a link holds beyond its options, to store and restore it ({@link LinkStateCodec}): its counters, the
     * failure, the answering window, the datasheet bound's keys (null without one), each window's state, each
     * unshifted window's (none without an excursion) and each straight window's with when a pair last contradicted
     * it. A straight or unshifted window's state may be null (stored before it existed): it then starts at the latest
     * time.
     */
    record State(LinkOptions options, boolean started, boolean failing, long latestX, long pairs, long stored,
            long stale, long failures, int answer, long restartedAt, DatasheetBounds.State datasheet,
            Window.State[] windows, Window.State[] plain, Window.State[] straights, long[] straightSince) {
    }

    public ConvexHullLink(LinkOptions options) {
        this(options, true);
    }

    /** With {@code filtering} false every pair takes the exact path in every epoch (to test the filter against). */
    ConvexHullLink(LinkOptions options, boolean filtering) {
        this.options = options;
        this.datasheet = options.maxDriftPpm() > 0 ? new DatasheetBounds(options.maxDriftPpm()) : null;
        this.windows = new WindowSet(options);
        this.severalWindows = windows.windows().length > 1;
        this.straights = new StraightFits(options);
        this.plain = new PlainWindows(options);
        this.feed = new WindowFeed(windows, plain, straights, filtering);
    }

    State state() {
        Window[] straight = straights.windows();
        long[] since = new long[straight.length];
        for (int i = 0; i < since.length; i++) {
            since[i] = straights.since(i);
        }
        return new State(options, started, failing, latestX, pairs, stored, stale, failures, windows.answer(),
                restartedAt, datasheet == null ? null : datasheet.state(), Window.states(windows.windows()),
                Window.states(plain.windows()), Window.states(straight), since);
    }

    /** The link a state was taken of; its version starts at 0. */
    static ConvexHullLink restore(State s) {
        ConvexHullLink link = new ConvexHullLink(s.options);
        link.started = s.started;
        link.failing = s.failing;
        link.latestX = s.latestX;
        link.pairs = s.pairs;
        link.stored = s.stored;
        link.stale = s.stale;
        link.failures = s.failures;
        link.windows.restoreAnswer(s.answer);
        link.restartedAt = s.restartedAt;
        if (link.datasheet != null && s.datasheet != null) {
            link.datasheet.restore(s.datasheet);
        }
        Window[] model = link.windows.windows();
        for (int i = 0; i < model.length; i++) {
            model[i].restore(s.windows[i]);
        }
        Window[] unshifted = link.plain.windows();
        for (int i = 0; i < unshifted.length; i++) {
            if (s.plain[i] != null) {
                unshifted[i].restore(s.plain[i]);
            } else if (s.started) {
                unshifted[i].advance(s.latestX, true);
            }
        }
        for (int i = 0; i < link.straights.windows().length; i++) {
            if (s.straights[i] != null) {
                link.straights.restore(i, s.straights[i], s.straightSince[i]);
            } else if (s.started) {
                link.straights.startAt(i, s.latestX);
            }
        }
        return link;
    }

    /** The clock model's windows, shortest first. */
    Window[] windows() {
        return windows.windows();
    }

    /** The unshifted windows (none without an excursion). */
    PlainWindows plain() {
        return plain;
    }

    /** The straight windows. */
    StraightFits straights() {
        return straights;
    }

    /** Pairs the redundancy filter passed. */
    long filtered() {
        return feed.filtered();
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
        long before = latestX;
        boolean changed = advance(x);
        if (severalWindows) {
            changed |= windows.tickMoved(before, latestX);
        }
        if (datasheet != null && x >= restartedAt) {
            datasheet.add(aToB, x, y); // a pair before the last restart is of the clocks before their step
        }
        if (!options.hasHorizon() && windows.longest().older().failed) {
            return PairEffect.FAILED;
        }
        PairEffect effect = PairEffect.REDUNDANT;
        if (!feed.passes(aToB, x, y, latestX, pairs)) {
            effect = feed.add(aToB, x, y, latestX, plain, straights);
            changed |= feed.changed();
        }
        if (effect == PairEffect.STALE) {
            stale++;
        } else if (effect == PairEffect.NARROWED) {
            stored++;
        } else if (effect == PairEffect.FAILED) {
            failures++;
            if (options.hasHorizon()) {
                restartAt(aToB, x, y);
                changed = true;
            }
        }
        if (changed) {
            version++;
            failing &= !windows.choose();
        }
        return effect;
    }

    /** Pairs contradicted the model at x: every window starts again from there, and the link is FAIL. */
    private void restartAt(boolean aToB, long x, long y) {
        for (Window w : windows.windows()) {
            w.restartAt(x);
        }
        straights.restartAt(x);
        plain.restartAt(x);
        feed.clearFilter();
        failing = true;
        restartedAt = x;
        if (datasheet != null) {
            // a clock stepped before this pair: the older messages no longer bound the relation
            datasheet.restart();
            datasheet.add(aToB, x, y);
        }
    }

    /**
     * Moves the latest time forward; each window rotates its epochs when the older one has reached its end. Whether
     * a window's corridor changed.
     */
    private boolean advance(long x) {
        if (started && x <= latestX) {
            return false;
        }
        boolean first = !started;
        started = true;
        latestX = x;
        return (first || feed.rotates(x)) && feed.advance(x, first);
    }

    private Window answering() {
        return windows.answering();
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
        return answering().older().maxLine();
    }

    /** L_min of the answering window: the compatible line of smallest slope, or null while unbounded. */
    public ExactLine minLine() {
        return answering().older().minLine();
    }

    /**
     * The conversion y = slope x + offset from a's clock to b's: a straight window's fit where one agrees
     * ({@link #fitted()}), else the bisector of the window {@link PlainWindows} chooses where it agrees (under an
     * excursion an unshifted one; without, a model window other than the answering one), else the answering
     * window's: Duda's bisector when ACCURATE, the best effort of {@link DudaEstimator#bestEffort} when APPROXIMATE;
     * after a final failure the last good one; else null (also when the corridor only admits non-increasing lines,
     * which no clock pair can have, or Duda's bisector falls).
     */
    public ClockMap estimate() {
        if (fitted()) {
            return straights.estimate();
        }
        return !failing && plain.agrees(version, latestX, windows) ? plain.estimate() : answering().estimate();
    }

    /**
     * Whether the link's estimate is a straight window's fit (see {@link StraightFits#fitted}): under the clock model
     * with known minimum delays, while the link is not failing. A function of the windows and the latest time.
     */
    public boolean fitted() {
        return !failing && straights.fitted(version, latestX, windows);
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
        return windows.slopeLimit(-1, version);
    }

    /**
     * A slope above every slope the relation may have at the latest time (NaN while unbounded): the smallest of the
     * windows' upper limits, L_max's slope rounded up plus ρ′W/2. With {@link #minSlopeBelow()}, a slope range that
     * holds the true one.
     */
    public double maxSlopeAbove() {
        return windows.slopeLimit(+1, version);
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
     * {@link Window#turn()}); NaN with linear clocks and until that window's second epoch ended. Shorter windows would
     * answer sooner, but their slopes are too noisy to tell a turn of the model's size (a 30-s epoch's slope is
     * known to ppm, its turn to hundreds of ppb/s). An estimate to compare with the model's ρ′, not a bound.
     */
    public double observedTurnPpbPerS() {
        return windows.longest().turn() * 1e18;
    }

    /**
     * The largest step of the clock relation's slope beyond the clock model that the data showed since the link
     * started, in ppb: over all windows, how far the slope ranges of two consecutive epochs, each widened by what the
     * model lets the slope depart from its chord, lie apart (see {@link Window#step()}) — at least that much did the
     * relative frequency step beyond ρ′ (and κ), so the model's bounds need not have held around it. 0 while no
     * epochs showed one, NaN with linear clocks and until two consecutive epochs of a window ended ACCURATE. A
     * lower bound, not an estimate: a step smaller than the epochs' slope ranges (2w/W for a corridor w wide over W)
     * goes unseen.
     */
    public double observedStepPpb() {
        double most = Double.NaN;
        for (Window w : windows.windows()) {
            double s = w.step();
            most = Double.isNaN(most) || s > most ? s : most;
        }
        return most * 1e9;
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
        return started && w.olderFrom() <= t && t - w.olderStart() <= w.length;
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
        return windows.longest().epoch();
    }

    /** Hull points held by the answering corridor. */
    public int hullPoints() {
        return answering().older().hullPoints();
    }
}
