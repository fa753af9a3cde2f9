package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import java.util.Arrays;

/**
 * Under the clock model with known minimum delays, a link's straight windows: one of each window's length and the
 * horizon, unrelaxed, as with linear clocks, shortest first. They bound nothing; the longest one's fit that agrees
 * with the answering window is the link's estimate ({@link #fitted}), so clocks that run straight for a while are
 * estimated as precisely as with linear clocks over that while. None otherwise: with linear clocks the one window is
 * straight, and where delays are unknown their corridors are too loose to show that the clocks bend, so their fits
 * would be biased.
 */
final class StraightFits {

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

    private final Window[] straights;
    /** When a pair last contradicted each straight window, MIN_VALUE if none did. */
    private final long[] since;
    private final long horizonNs;
    /** The link's version and latest time {@link #fit} was found for. */
    private long fittedVersion = -1;
    private long fittedAt;
    /** The straight window whose fit is the estimate, -1 for none. */
    private int fit = -1;

    StraightFits(LinkOptions options) {
        long[] straightLengths = lengths(options);
        this.straights = new Window[straightLengths.length];
        for (int i = 0; i < straights.length; i++) {
            straights[i] = new Window(straightLengths[i], 0);
        }
        this.since = new long[straights.length];
        Arrays.fill(since, Long.MIN_VALUE);
        this.horizonNs = options.horizonNs();
    }

    /** The straight windows' lengths under these options, shortest first: none, or each window's and the horizon. */
    static long[] lengths(LinkOptions options) {
        long[] lengths = options.windows();
        if (!options.bending() || options.minDelayAtoBNs() == 0 && options.minDelayBtoANs() == 0) {
            return new long[0];
        }
        if (lengths[lengths.length - 1] == options.horizonNs()) {
            return lengths;
        }
        long[] withHorizon = Arrays.copyOf(lengths, lengths.length + 1);
        withHorizon[lengths.length] = options.horizonNs();
        return withHorizon;
    }

    /** The straight windows themselves, shortest first. */
    Window[] windows() {
        return straights;
    }

    /** When a pair last contradicted straight window i, MIN_VALUE if none did. */
    long since(int i) {
        return since[i];
    }

    void restore(int i, Window.State state, long contradictedAt) {
        straights[i].restore(state);
        since[i] = contradictedAt;
    }

    /** Straight window i starts at the latest time, as at a link's first pair (a state stored without it). */
    void startAt(int i, long latestX) {
        straights[i].advance(latestX, true);
        since[i] = latestX;
    }

    /** A pair at x showed that the clocks are not straight over window i's length: it starts again, a fit only. */
    void contradicted(int i, long x) {
        straights[i].restartAt(x);
        since[i] = x;
    }

    /** Pairs contradicted the model at x: every straight window starts again. */
    void restartAt(long x) {
        for (Window w : straights) {
            w.restartAt(x);
        }
        Arrays.fill(since, x);
    }

    /**
     * Whether a straight window's fit is the link's estimate: the longest straight window such that no pair has
     * contradicted it for {@value #STRAIGHT_SPAN} of its lengths (at most a horizon), it is ACCURATE, its corridor at
     * the latest time is at least {@value #FIT_PRECISION} times narrower than the answering window's bounds, its
     * slope lies in the answering window's slope range (widened by the model's turn) and its bounds lie inside the
     * answering window's at the latest time. A function of the windows and the latest time, found again when the
     * link's {@code version} or latest time moved.
     */
    boolean fitted(long version, long latestX, WindowSet set) {
        if (straights.length == 0) {
            return false;
        }
        if (fittedVersion != version || fittedAt != latestX) {
            fittedVersion = version;
            fittedAt = latestX;
            fit = -1;
            for (int i = straights.length - 1; i >= 0 && fit < 0; i--) {
                fit = agrees(i, latestX, set) ? i : -1;
            }
        }
        return fit >= 0;
    }

    /** The fit {@link #fitted} found. */
    ClockMap estimate() {
        return straights[fit].estimate();
    }

    private boolean agrees(int i, long latestX, WindowSet set) {
        Window straight = straights[i];
        if (since[i] != Long.MIN_VALUE && latestX - since[i] < Math.min(STRAIGHT_SPAN * straight.length, horizonNs)) {
            return false;
        }
        Window a = set.answering();
        if (a.quality() != LinkQuality.ACCURATE || straight.quality() != LinkQuality.ACCURATE
                || !(straight.widthAt(latestX) * FIT_PRECISION <= a.widthAt(latestX))) {
            return false;
        }
        ClockMap fitted = straight.estimate();
        double slope = fitted.slope().hi();
        if (!(slope >= set.limitOf(a, -1) && slope <= set.limitOf(a, +1))) {
            return false;
        }
        LinkBounds b = a.boundsAt(latestX, fitted);
        LinkBounds own = straight.boundsAt(latestX);
        return b.upNs() != null && b.downNs() != null && own.upNs() != null && own.downNs() != null
                && own.upNs().compareTo(b.upNs()) <= 0 && own.downNs().compareTo(b.downNs()) <= 0;
    }
}
