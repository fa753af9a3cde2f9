package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;

/**
 * One window length W of a link: two overlapping epochs of its pairs, the newer started W/2 after the older, so
 * that the older one, which answers, rests on between W/2 and W of recent data; when the latest time reaches the
 * older's start + W the newer becomes the older and a new epoch starts [Poirier 2010, §4.5: clocks are not linear
 * over hours].
 *
 * <p>Under the clock model ρ′ (docs/LINK-CORE.md, "Clocks that bend") each epoch holds the pairs of its own range
 * [u, v) = [its start, its start + W) and raises every a→b point, lowers every b→a point, by ε(x) = ρ′(x − u)(v − x)/2
 * rounded up to the nanosecond: the chord of the true relation over [u, v] then satisfies every relaxed
 * constraint, so it lies in the corridor, and the true relation lies within ε(t) = ρ′|t − u||t − v|/2 of it at any
 * time t. With linear clocks (ρ′ = 0) an epoch also takes late pairs from before its start, back to the latest
 * time − W, and nothing is relaxed. Under an excursion Φ every point moves outward by Φ more and the bounds widen by
 * Φ on each side: the corridor then holds the chord of the curve the relation departs from by at most Φ
 * (docs/LINK-CORE.md, "Offset excursions").
 */
final class Window {

    /** A factor that rounds a product of a few doubles up past their rounding errors. */
    static final double ROUND_UP = 1 + 0x1p-40;
    /** Four units in the last place of a slope near 1: more than the rounding of a mean of two slopes. */
    private static final double SLOPE_ROUNDING = 4 * Math.ulp(1.0);

    final long length;
    private final long half;
    /** ρ′ per ns, or with frequency steps this window's ρ_W ({@link LinkOptions#windowCurvaturePerNs}); 0: linear. */
    private final double curvature;
    /** Φ, ns: how far every point moves outward besides the allowance, and the bounds widen (0: no excursion). */
    private final long shift;
    private Corridor older = new Corridor();
    private Corridor newer;
    private long olderStart = Long.MIN_VALUE;
    private long newerStart;
    /** The earliest time each epoch takes: its start under the clock model, after a restart the restarting time. */
    private long olderFrom = Long.MIN_VALUE;
    private long newerFrom;
    private long epoch;
    /** Counts the changes of the answering corridor: a narrowing pair, a rotation, a restart. */
    private long version;
    /** The epochs the last {@link #add} narrowed: bit 1 the older, bit 2 the newer. */
    private int narrowed;
    private long estimateVersion = -1;
    private long estimableVersion = -1;
    private boolean estimable;
    private ClockMap estimate;
    /**
     * Under the clock model, the mean slope (the middle of the slope range) of the last epoch that ended ACCURATE over
     * its whole range, NaN if the last one did not; and how fast the relation turned between the last two such
     * consecutive epochs: the difference of their mean slopes over the W/2 between their centres, per ns (NaN until
     * measured; then the last measure).
     */
    private double endedSlope = Double.NaN;
    private double turn = Double.NaN;
    /**
     * Half the slope range of the last epoch that ended ACCURATE over its whole range (NaN with
     * {@code endedSlope}); and the largest step beyond the clock model that two such consecutive epochs showed since
     * the window began: how far their slope ranges, each widened by what the model lets the slope depart from the
     * chord's (ρ_W·W/2), lie apart (0 while they always met; NaN until measured).
     */
    private double endedSpread = Double.NaN;
    private double step = Double.NaN;
    /** Whether the epochs hold their whole range: not started after their start by the first pair or a restart. */
    private boolean olderWhole;
    private boolean newerWhole;
    /** The lines' terms of the last bisector: a new pair usually moves one line only. */
    private DudaEstimator.Side minSide;
    private DudaEstimator.Side maxSide;

    /**
     * What a window holds beyond its length and curvature, to store and restore it ({@link LinkStateCodec}): the
     * epochs' grid, the times from which they take pairs, their corridors (the window's own, not copies), and the
     * slope, turn and step the data showed ({@link #end}). {@code newer} is null until the first pair.
     */
    record State(long olderStart, long newerStart, long olderFrom, long newerFrom, long epoch, boolean olderWhole,
            boolean newerWhole, double endedSlope, double turn, double endedSpread, double step, Corridor older,
            Corridor newer) {
    }

    Window(long length, double curvaturePerNs) {
        this(length, curvaturePerNs, 0);
    }

    Window(long length, double curvaturePerNs, long shiftNs) {
        this.length = length;
        this.half = length / 2;
        this.curvature = curvaturePerNs;
        this.shift = shiftNs;
    }

    /** Each window's state, in their order. */
    static State[] states(Window[] windows) {
        State[] states = new State[windows.length];
        for (int i = 0; i < windows.length; i++) {
            states[i] = windows[i].state();
        }
        return states;
    }

    State state() {
        return new State(olderStart, newerStart, olderFrom, newerFrom, epoch, olderWhole, newerWhole, endedSlope,
                turn, endedSpread, step, older, newer);
    }

    /** Takes over a stored state: the corridors become this window's. */
    void restore(State s) {
        olderStart = s.olderStart;
        newerStart = s.newerStart;
        olderFrom = s.olderFrom;
        newerFrom = s.newerFrom;
        epoch = s.epoch;
        olderWhole = s.olderWhole;
        newerWhole = s.newerWhole;
        endedSlope = s.endedSlope;
        turn = s.turn;
        endedSpread = s.endedSpread;
        step = s.step;
        older = s.older;
        newer = s.newer;
    }

    /** The answering epoch's corridor. */
    Corridor older() {
        return older;
    }

    /** The newer epoch's corridor, null before the first pair. */
    Corridor newer() {
        return newer;
    }

    long olderStart() {
        return olderStart;
    }

    long newerStart() {
        return newerStart;
    }

    long olderFrom() {
        return olderFrom;
    }

    long newerFrom() {
        return newerFrom;
    }

    /** Epoch rotations and restarts so far. */
    long epoch() {
        return epoch;
    }

    /** Counts the changes of the answering corridor: a narrowing pair, a rotation, a restart. */
    long version() {
        return version;
    }

    /** The epochs the last {@link #add} narrowed: bit 1 the older, bit 2 the newer. */
    int narrowed() {
        return narrowed;
    }

    /**
     * How fast the relation turned between the last two consecutive epochs that ended ACCURATE over their whole
     * range, per ns (see {@link #end}); NaN until measured.
     */
    double turn() {
        return turn;
    }

    /**
     * The largest step of the relation's slope beyond the clock model that two consecutive epochs showed (see
     * {@link #end}), dimensionless; 0 while none did, NaN until measured.
     */
    double step() {
        return step;
    }

    boolean bending() {
        return curvature > 0;
    }

    /** The curvature the window is relaxed by, per ns. */
    double curvature() {
        return curvature;
    }

    /** Moves to the latest time x (on a's clock, not older than the last), rotating epochs at the window's end. */
    void advance(long x, boolean first) {
        if (length == 0) {
            return;
        }
        if (first) {
            // under the clock model the first pair is already in the newer epoch, as after any rotation, so that the
            // epochs at any time are those of the latest time's grid cell and the one before, whatever came first
            newerStart = Math.floorDiv(x, half) * half + (bending() ? 0 : half);
            olderStart = newerStart - half;
            olderFrom = bending() ? olderStart : Long.MIN_VALUE;
            newerFrom = newerStart;
            newer = new Corridor();
            olderWhole = false;
            newerWhole = x == newerStart;
            return;
        }
        if (x >= newerStart && Long.compareUnsigned(x - newerStart, length) >= 0) {
            // Both epochs are older than the window (traffic paused): start afresh.
            long k = Math.floorDiv(x, half);
            olderStart = (k - 1) * half;
            newerStart = k * half;
            olderFrom = bending() ? olderStart : Long.MIN_VALUE;
            newerFrom = newerStart;
            older = new Corridor();
            newer = new Corridor();
            olderWhole = false;
            newerWhole = x == newerStart;
            endedSlope = Double.NaN;
            endedSpread = Double.NaN;
            epoch++;
            version++;
        } else if (x >= olderStart && Long.compareUnsigned(x - olderStart, length) >= 0) {
            end();
            older = newer;
            olderWhole = newerWhole;
            newerWhole = true;
            olderStart = newerStart;
            olderFrom = bending() ? olderStart : Long.MIN_VALUE;
            newerStart = saturatedAdd(newerStart, half);
            newerFrom = newerStart;
            newer = new Corridor();
            epoch++;
            version++;
        }
    }

    /**
     * The older epoch ends: its mean slope, if it covered its whole range and is ACCURATE, against the previous
     * epoch's (which ended W/2 earlier, by the grid of starts) gives the turn the data show: for a relation turning
     * steadily (f″ constant) a mean slope is the slope at the centre, and the turn is f″. It estimates how close the
     * clocks run to the model and bounds nothing (under |f″| ≤ ρ′ it stays within 3ρ′: each mean slope is the
     * relation's slope somewhere in its epoch, and the two epochs span 1.5 W).
     *
     * <p>Their slope ranges also show a step: the chord of each epoch has its slope in the epoch's range, and under
     * the model the relation's slope anywhere in the epoch lies within ρ_W·W/2 of the chord's (the mean of a
     * ρ_W-Lipschitz derivative over W); the two epochs overlap by W/2, so at any time of the overlap the slope lies
     * in both ranges so widened. Where these do not meet, the clocks left the model there: the gap is a step of the
     * slope (a daemon's frequency update, the end of a slew) at least that large beyond what ρ′ and κ allow.
     */
    private void end() {
        if (!bending()) {
            return;
        }
        ExactLine min = older.failed || !olderWhole ? null : older.minLine();
        ExactLine max = min == null ? null : older.maxLine();
        double low = max == null ? Double.NaN : DudaEstimator.Side.of(min).slopeBelow();
        double high = max == null ? Double.NaN : DudaEstimator.Side.of(max).slopeAbove();
        double slope = (low + high) / 2;
        double spread = (high - low) / 2;
        if (!Double.isNaN(slope) && !Double.isNaN(endedSlope)) {
            turn = Math.abs(slope - endedSlope) / half;
            if (!Double.isNaN(endedSpread)) {
                // less a few units in the last place of the slopes (~1): the means' rounding
                double gap = Math.abs(slope - endedSlope) - spread - endedSpread - curvature * length - SLOPE_ROUNDING;
                step = Math.max(Double.isNaN(step) ? 0 : step, Math.max(0, gap));
            }
        }
        endedSlope = slope;
        endedSpread = spread;
    }

    /** The latest time at which {@link #advance} rotates the epochs (or starts afresh). */
    long rotatesAt() {
        return length == 0 ? Long.MAX_VALUE : saturatedAdd(olderStart, length);
    }

    /** Whether the older epoch takes a pair at x, the latest time being {@code latestX}. */
    boolean takes(long x, long latestX) {
        if (x < olderFrom) {
            return false;
        }
        return length == 0 || x >= latestX || Long.compareUnsigned(latestX - x, length) <= 0;
    }

    /**
     * Adds a point (y already corrected by the minimum delay) to the epochs that take it: the older epoch's effect,
     * or FAILED when either epoch became infeasible — the pairs contradict the clock model.
     */
    PairEffect add(boolean aToB, long x, long y, long latestX) {
        if (!takes(x, latestX)) {
            return PairEffect.STALE;
        }
        boolean contradicted = false;
        narrowed = 0;
        if (newer != null && x >= newerFrom) {
            PairEffect e = newer.add(aToB, x, relaxed(aToB, x, y, newerStart));
            contradicted = e == PairEffect.FAILED;
            narrowed = e == PairEffect.NARROWED ? 2 : 0;
        }
        PairEffect effect = older.add(aToB, x, relaxed(aToB, x, y, olderStart));
        if (effect == PairEffect.NARROWED || effect == PairEffect.FAILED) {
            version++;
        }
        narrowed |= effect == PairEffect.NARROWED ? 1 : 0;
        return contradicted ? PairEffect.FAILED : effect;
    }

    /** y moved outward by ε(x) of the epoch starting at {@code start} and Φ: up for a→b points, down for b→a. */
    private long relaxed(boolean aToB, long x, long y, long start) {
        if (!bending() && shift == 0) {
            return y;
        }
        long e = (bending() ? ceil(allowance(x, start)) : 0) + shift;
        try {
            return aToB ? Math.addExact(y, e) : Math.subtractExact(y, e);
        } catch (ArithmeticException overflow) {
            throw new IllegalArgumentException("timestamp " + y + " overflows with the clock model's allowance "
                    + e + " ns", overflow);
        }
    }

    /** How far a point at t moves outward in the epoch starting at {@code start}: ε(t) plus Φ, in double. */
    double outward(long t, long start) {
        return allowance(t, start) + shift;
    }

    /**
     * ρ′(t − u)(u + W − t)/2 for the epoch starting at u, in double: ε(t) inside the epoch's range, negative
     * outside it; 0 with linear clocks.
     */
    double allowance(long t, long start) {
        return curvature * (double) (t - start) * (double) (start + length - t) / 2;
    }

    private static long ceil(double v) {
        return (long) Math.ceil(v * ROUND_UP);
    }

    /** After pairs contradicted the clock model at x: both epochs start again, empty, taking pairs from x on. */
    void restartAt(long x) {
        older = new Corridor();
        olderFrom = Math.max(x, bending() ? olderStart : Long.MIN_VALUE);
        if (newer != null) {
            newer = new Corridor();
            newerFrom = Math.max(x, newerStart);
            newerWhole &= x <= newerStart;
        }
        olderWhole = false;
        endedSlope = Double.NaN;
        endedSpread = Double.NaN;
        epoch++;
        version++;
    }

    /**
     * The answering epoch's quality: a corridor bounded enough for an estimate but admitting no increasing one is
     * INCOMPLETE.
     */
    LinkQuality quality() {
        LinkQuality q = older.quality();
        if ((q == LinkQuality.ACCURATE || q == LinkQuality.APPROXIMATE) && !estimable()) {
            return LinkQuality.INCOMPLETE;
        }
        return q;
    }

    /** Whether {@link #estimate()} is not null, decided without computing it. */
    boolean estimable() {
        if (estimableVersion != version) {
            estimable = switch (older.qualityBeforeFailure()) {
                case ACCURATE -> DudaEstimator.increases(older.minLine(), older.maxLine());
                case APPROXIMATE -> DudaEstimator.mayIncrease(older.maxLine());
                default -> false;
            };
            estimableVersion = version;
        }
        return estimable;
    }

    /**
     * Duda's bisector when ACCURATE, the best effort of {@link DudaEstimator#bestEffort} when APPROXIMATE; after a
     * final failure the last good one; else null (also when the corridor only admits non-increasing lines).
     */
    ClockMap estimate() {
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

    DudaEstimator.Side minSide() {
        ExactLine min = older.minLine();
        if (min == null) {
            return null;
        }
        minSide = side(min, minSide);
        return minSide;
    }

    DudaEstimator.Side maxSide() {
        ExactLine max = older.maxLine();
        if (max == null) {
            return null;
        }
        maxSide = side(max, maxSide);
        return maxSide;
    }

    /**
     * The bounds at t around the estimate: the corridor's envelopes [Poirier 2010, §3.1] widened by the clock
     * model's ε(t) and Φ; null without estimate.
     */
    LinkBounds boundsAt(long t) {
        return boundsAt(t, estimate());
    }

    /** The bounds at t around the map c (which may come from another window); null if c is. */
    LinkBounds boundsAt(long t, ClockMap c) {
        if (c == null) {
            return null;
        }
        Dyadic at = Dyadic.of(c.slope()).times(t).plus(Dyadic.of(c.offset()));
        Rational up = older.upperAt(t);
        Rational down = older.lowerAt(t);
        BigDecimal upNs = up == null ? null : at.ceilPicosBelow(up);
        BigDecimal downNs = down == null ? null : at.ceilPicosAbove(down);
        if (bending()) {
            BigDecimal e = allowanceAt(t);
            upNs = upNs == null || e == null ? null : upNs.add(e);
            downNs = downNs == null || e == null ? null : downNs.add(e);
        }
        if (shift != 0) {
            BigDecimal phi = BigDecimal.valueOf(shift);
            upNs = upNs == null ? null : upNs.add(phi);
            downNs = downNs == null ? null : downNs.add(phi);
        }
        return new LinkBounds(t, upNs, downNs);
    }

    /**
     * The width up + down of the bounds at t in double arithmetic, NaN while a side is open or without estimate: the
     * corridor's height plus 2ε(t), without the 2Φ every window of the link adds alike. A function of the corridor and
     * t alone, to choose the answering window by.
     */
    double widthAt(long t) {
        if (!estimable()) {
            return Double.NaN;
        }
        double height = older.heightAt(t);
        if (!bending()) {
            return height;
        }
        long fromStart = t - olderStart;
        return height + curvature * Math.abs((double) fromStart) * Math.abs((double) (fromStart - length));
    }

    /** ε(t) = ρ′|t − u||t − v|/2 of the answering epoch, in ns rounded up to the picosecond; null if beyond range. */
    BigDecimal allowanceAt(long t) {
        long fromStart = t - olderStart;
        long toEnd = fromStart - length;
        if (((t ^ olderStart) & (t ^ fromStart)) < 0 || ((fromStart ^ length) & (fromStart ^ toEnd)) < 0) {
            return null;
        }
        double e = curvature * Math.abs((double) fromStart) * Math.abs((double) toEnd) / 2 * 1000;
        return e < 0x1p62 ? BigDecimal.valueOf(ceil(e), 3) : null;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
