package io.tracesync.core.link;

/**
 * The clock model's windows of a link, shortest first (one with linear clocks), and the one that answers: the
 * narrowest at the latest time rounded down to a tick of 1/{@value #TICKS_PER_SHORTEST_WINDOW} of the shortest
 * window, chosen again whenever a window's corridor changes or the tick moves, so that the choice is a function of
 * the windows and the latest time (docs/LINK-CORE.md, "Clocks that bend"). Also the slope range the windows hold
 * together at the latest time.
 */
final class WindowSet {

    /** How many ticks make the shortest window. */
    private static final long TICKS_PER_SHORTEST_WINDOW = 16;

    private final Window[] windows;
    private final boolean bending;
    /** The tick at whose multiples the windows' widths are compared. */
    private final long tick;
    /** The latest time rounded down to the tick (MIN_VALUE until the first pair, also after restoring). */
    private long tickAt = Long.MIN_VALUE;
    /** The window that answers (see {@link #choose}). */
    private int answer;
    /** The slope range of {@link #slopeLimit} as of the link's version {@code rangeVersion} (-1: none yet). */
    private long rangeVersion = -1;
    private double rangeLow;
    private double rangeHigh;

    /** The model's windows, shifted by the options' excursion Φ. */
    WindowSet(LinkOptions options) {
        long[] lengths = options.windows();
        this.windows = of(options, lengths, options.excursionNs());
        this.bending = options.bending();
        this.answer = lengths.length - 1;
        this.tick = Math.max(1, lengths[0] / TICKS_PER_SHORTEST_WINDOW);
    }

    /** A window of each of these lengths, relaxed by its curvature under the options and shifted by {@code shiftNs}. */
    static Window[] of(LinkOptions options, long[] lengths, long shiftNs) {
        Window[] windows = new Window[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            windows[i] = new Window(lengths[i], options.windowCurvaturePerNs(lengths[i]), shiftNs);
        }
        return windows;
    }

    /** The windows themselves, shortest first. */
    Window[] windows() {
        return windows;
    }

    Window shortest() {
        return windows[0];
    }

    Window longest() {
        return windows[windows.length - 1];
    }

    Window answering() {
        return windows[answer];
    }

    /** The answering window's index, to store. */
    int answer() {
        return answer;
    }

    void restoreAnswer(int stored) {
        if (stored < 0 || stored >= windows.length) {
            throw new IllegalArgumentException("bad answering window " + stored);
        }
        answer = stored;
    }

    long tick() {
        return tick;
    }

    /** The latest time {@code latestX} rounded down to the tick: the time the windows' widths are compared at. */
    long tickOf(long latestX) {
        return Math.floorDiv(latestX, tick) * tick;
    }

    /**
     * Whether a pair that moved the latest time from {@code before} to {@code latestX} moved it to another tick; the
     * first call after a start or a restore takes {@code before}'s tick as the last one.
     */
    boolean tickMoved(long before, long latestX) {
        if (tickAt == Long.MIN_VALUE) {
            tickAt = Math.floorDiv(before, tick) * tick;
        }
        if (latestX >= tickAt && Long.compareUnsigned(latestX - tickAt, tick) < 0) {
            return false;
        }
        tickAt = Math.floorDiv(latestX, tick) * tick;
        return true;
    }

    /**
     * Picks the answering window: of those of the best quality (ACCURATE before APPROXIMATE), the one whose bounds
     * are the narrowest (up + down) at the tick, the longer on a tie; the longest while none has an estimate.
     * Whether the one chosen has an estimate.
     */
    boolean choose() {
        answer = narrowest(windows, tickAt);
        return rank(windows[answer]) < 2;
    }

    /**
     * Of {@code windows}, those of the best quality (ACCURATE before APPROXIMATE), the one whose bounds are the
     * narrowest (up + down) at {@code at}, the longer on a tie; the longest while none has an estimate.
     */
    static int narrowest(Window[] windows, long at) {
        int best = windows.length - 1;
        if (windows.length == 1) {
            return best;
        }
        int bestRank = rank(windows[best]);
        double bestWidth = bestRank < 2 ? windows[best].widthAt(at) : Double.NaN;
        for (int i = windows.length - 2; i >= 0; i--) {
            int r = rank(windows[i]);
            if (r > bestRank || r == 2) {
                continue;
            }
            double w = windows[i].widthAt(at);
            if (r < bestRank || w < bestWidth || (Double.isNaN(bestWidth) && !Double.isNaN(w))) {
                best = i;
                bestRank = r;
                bestWidth = w;
            }
        }
        return best;
    }

    /** 0 for an ACCURATE window, 1 for APPROXIMATE, 2 for one without estimate. */
    private static int rank(Window w) {
        return switch (w.quality()) {
            case ACCURATE -> 0;
            case APPROXIMATE -> 1;
            default -> 2;
        };
    }

    /**
     * A slope below ({@code sign} −1) or above (+1) every slope the relation may have at the latest time, NaN while
     * unbounded, as of the link's {@code version}: the tightest of the windows' limits where the answering window
     * has both (see {@code ConvexHullLink#minSlopeBelow}).
     */
    double slopeLimit(int sign, long version) {
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
    double limitOf(Window w, int sign) {
        DudaEstimator.Side side = sign > 0 ? w.maxSide() : w.minSide();
        return side == null ? Double.NaN
                : sign > 0 ? widened(side.slopeAbove(), +1, w) : widened(side.slopeBelow(), -1, w);
    }

    /** A window's slope limit widened by the turn ρ_W·W/2 its curvature allows over its length. */
    private double widened(double slope, int sign, Window w) {
        if (!bending) {
            return slope;
        }
        double turn = Math.nextUp(w.curvature() * w.length / 2 * Window.ROUND_UP);
        return sign > 0 ? Math.nextUp(slope + turn) : Math.nextDown(slope - turn);
    }
}
