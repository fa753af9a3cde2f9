package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.Rational;

/**
 * Clock synchronization of one link (a, b), a &lt; b: the fully incremental convex hull method [Jabbarifar 2013,
 * §3.6.4] with exact predicates, Poirier's guaranteed bounds, Ashton's minimum-delay correction and a sliding horizon.
 *
 * <p>Points have x = a's clock and y = b's clock. A message a-&gt;b gives (send_a, recv_b - minDelay_ab), above
 * the clock line; a message b-&gt;a gives (recv_a, send_b + minDelay_ba), below it (Ashton 1995 §4.2.2: the
 * minimum delay closes up the corridor).
 *
 * <p>Sliding horizon H (clocks are not linear over hours, Poirier §4.5): two overlapping epochs, the newer started
 * H/2 after the older. A pair older than latestX - H is stale; any other goes to the older epoch, and to the newer
 * one too if it is not older than its start. The older one answers, so in-order answers rest on between H/2 and H of
 * recent data. When the latest time reaches older.start + H the newer becomes the older and a new epoch starts.
 * When the older epoch fails, the newer one takes over at once: the link reports FAIL until that epoch has an
 * estimate of its own, and so recovers by itself. Without a horizon a failure is final and the last good corridor
 * is kept.
 */
public final class ConvexHullLink {

    private final LinkOptions options;
    private final long half;
    Corridor older = new Corridor();
    Corridor newer;
    long olderStart = Long.MIN_VALUE;
    long newerStart;
    boolean started;
    long latestX;
    long pairs;
    long stored;
    long stale;
    long failures;
    long epoch;
    /** The answering epoch took over from a failed one and has no estimate of its own yet: the link is FAIL. */
    boolean failing;
    /** Counts the changes of the answering corridor (see {@link #version()}); the estimate is of estimateVersion. */
    private long version;
    private long estimateVersion = -1;
    private ClockMap estimate;
    /** The lines' terms of the last bisector: a new pair usually moves one line only. */
    private DudaEstimator.Side minSide;
    private DudaEstimator.Side maxSide;

    public ConvexHullLink(LinkOptions options) {
        this.options = options;
        this.half = options.horizonNs() / 2;
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
        advance(x);
        if (isStale(x)) {
            stale++;
            return PairEffect.STALE;
        }
        if (newer != null && x >= newerStart && newer.add(aToB, x, y) == PairEffect.FAILED) {
            newer = new Corridor();
        }
        if (older.failed) {
            return PairEffect.FAILED;
        }
        PairEffect effect = older.add(aToB, x, y);
        if (effect == PairEffect.NARROWED) {
            stored++;
            version++;
        } else if (effect == PairEffect.FAILED) {
            failures++;
            version++;
            if (newer != null) {
                rotate();
                failing = true;
            }
        }
        if (failing && estimate() != null) {
            failing = false;
        }
        return effect;
    }

    /**
     * Whether x is older than the horizon measured from the latest time: x &lt; latestX - H. A pair that arrives
     * late but within it still counts, in the older epoch even before its start.
     */
    private boolean isStale(long x) {
        return options.hasHorizon() && x < latestX && Long.compareUnsigned(latestX - x, options.horizonNs()) > 0;
    }

    /** Moves the latest time forward and rotates epochs when the older one has reached the horizon. */
    private void advance(long x) {
        if (started && x <= latestX) {
            return;
        }
        latestX = x;
        if (!options.hasHorizon()) {
            started = true;
            return;
        }
        if (!started) {
            started = true;
            olderStart = Math.floorDiv(x, half) * half;
            newerStart = olderStart + half;
            newer = new Corridor();
            return;
        }
        if (x >= newerStart && Long.compareUnsigned(x - newerStart, options.horizonNs()) >= 0) {
            // Both epochs are older than the horizon (traffic paused): start afresh.
            long k = Math.floorDiv(x, half);
            olderStart = (k - 1) * half;
            newerStart = k * half;
            older = new Corridor();
            newer = new Corridor();
            epoch++;
            version++;
        } else if (x >= olderStart && Long.compareUnsigned(x - olderStart, options.horizonNs()) >= 0) {
            rotate();
        }
    }

    private void rotate() {
        older = newer;
        olderStart = newerStart;
        newerStart = saturatedAdd(newerStart, half);
        newer = new Corridor();
        epoch++;
        version++;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * The link's one quality, which every output reports: the answering corridor's, except that a corridor bounded
     * enough for an estimate but admitting no increasing one is INCOMPLETE, and that after a failure the link is
     * FAIL until its answering epoch has an estimate of its own (for good without a horizon).
     */
    public LinkQuality quality() {
        LinkQuality q = older.quality();
        boolean estimable = q == LinkQuality.ACCURATE || q == LinkQuality.APPROXIMATE;
        if (estimable && estimate() != null) {
            return q;
        }
        if (failing) {
            return LinkQuality.FAIL;
        }
        return estimable ? LinkQuality.INCOMPLETE : q;
    }

    /** L_max: the compatible line of largest slope, or null while unbounded. */
    public ExactLine maxLine() {
        return older.maxLine();
    }

    /** L_min: the compatible line of smallest slope, or null while unbounded. */
    public ExactLine minLine() {
        return older.minLine();
    }

    /**
     * The conversion y = slope x + offset from a's clock to b's: Duda's bisector when ACCURATE, the best effort
     * of {@link DudaEstimator#bestEffort} when APPROXIMATE; after a final failure the last good one; else null
     * (also when the corridor only admits non-increasing lines, which no clock pair can have, or Duda's bisector
     * falls).
     */
    public ClockMap estimate() {
        if (estimateVersion != version) {
            ExactLine min = older.minLine();
            ExactLine max = older.maxLine();
            estimate = switch (older.qualityBeforeFailure()) {
                case ACCURATE -> {
                    minSide = side(min, minSide);
                    maxSide = side(max, maxSide);
                    yield DudaEstimator.bisector(minSide, maxSide);
                }
                case APPROXIMATE -> DudaEstimator.bestEffort(older, min, max);
                default -> null;
            };
            estimateVersion = version;
        }
        return estimate;
    }

    private static DudaEstimator.Side side(ExactLine line, DudaEstimator.Side held) {
        return held != null && held.line().equals(line) ? held : DudaEstimator.Side.of(line);
    }

    /**
     * Changes whenever the answering corridor may have changed (a narrowing pair, a failure, an epoch rotation or
     * restart). While it stays the same, so do the quality, L_min, L_max, the estimate and the slope accuracy: only
     * the latest time, and with it the bounds at it, can move. Held in memory only: a decoded link starts at 0.
     */
    public long version() {
        return version;
    }

    /** Slope accuracy alpha_max - alpha_min [Jabbarifar 2013, Eq. 3.13], or null unless both lines exist. */
    public Rational slopeAccuracy() {
        ExactLine min = older.minLine();
        ExactLine max = older.maxLine();
        return min == null || max == null ? null : max.slope().subtract(min.slope());
    }

    /**
     * The slope of L_min rounded down to a double (NaN while unbounded): a divisor that can only widen the bounds
     * it scales.
     */
    public double minSlopeBelow() {
        ExactLine min = older.minLine();
        if (min == null) {
            return Double.NaN;
        }
        minSide = side(min, minSide);
        return minSide.slopeBelow();
    }

    /**
     * The slope of L_max rounded up to a double (NaN while unbounded): with {@link #minSlopeBelow()}, a slope range
     * that holds the true one.
     */
    public double maxSlopeAbove() {
        ExactLine max = older.maxLine();
        if (max == null) {
            return Double.NaN;
        }
        maxSide = side(max, maxSide);
        return maxSide.slopeAbove();
    }

    /**
     * {@link #slopeAccuracy()} as a double (NaN unless both lines exist), from the exact cross product: 0 exactly
     * for parallel lines, else within 2^-100 relative of the exact value before its last rounding.
     */
    public double slopeAccuracyValue() {
        ExactLine min = older.minLine();
        ExactLine max = older.maxLine();
        if (min == null || max == null) {
            return Double.NaN;
        }
        minSide = side(min, minSide);
        maxSide = side(max, maxSide);
        return DudaEstimator.slopeDifference(maxSide, minSide).hi();
    }

    /** Poirier's bounds Δ1 (up) and Δ2 (down) around the estimate at time t of a's clock; null without estimate. */
    public LinkBounds boundsAt(long t) {
        ClockMap c = estimate();
        if (c == null) {
            return null;
        }
        Dyadic at = Dyadic.of(c.slope()).times(t).plus(Dyadic.of(c.offset()));
        Rational up = older.upperAt(t);
        Rational down = older.lowerAt(t);
        return new LinkBounds(t, up == null ? null : at.ceilPicosBelow(up),
                down == null ? null : at.ceilPicosAbove(down));
    }

    /** The bounds at the latest time seen on a's clock, or null before the first pair. */
    public LinkBounds boundsAtLatest() {
        return started ? boundsAt(latestX) : null;
    }

    /** Latest time seen on a's clock (valid once {@link #pairs()} &gt; 0). */
    public long latestX() {
        return latestX;
    }

    public long pairs() {
        return pairs;
    }

    /** Pairs that narrowed the answering corridor. */
    public long stored() {
        return stored;
    }

    /** Pairs older than the horizon before the latest time. */
    public long stale() {
        return stale;
    }

    /** Epochs that became infeasible. */
    public long failures() {
        return failures;
    }

    /** Epoch rotations and restarts so far. */
    public long epoch() {
        return epoch;
    }

    /** Hull points held by the answering corridor. */
    public int hullPoints() {
        return older.hullPoints();
    }
}
