package io.tracesync.core.link;

import java.math.BigDecimal;

/**
 * A link's interval under the datasheet alone: each clock's rate stays within ±R of true time, whatever the
 * temperature or a time daemon does within that rate (its slews and frequency steps), so the relation g of b's clock
 * to a's has its slope in [s_min, s_max] = [(1 − R)/(1 + R), (1 + R)/(1 − R)] everywhere — only a clock step breaks
 * it, which the link's windows detect (they restart, and so does this). Each message bounds g from then on
 * [Cristian 1989; Patt-Shamir &amp; Rajsbaum 1994]: an a→b one at (x, y) gives g(t) ≤ y + s_max·(t − x), a b→a one
 * g(t) ≥ y + s_min·(t − x), for every t ≥ x. The tightest at any later t come from the least y − s_max·x of the a→b
 * messages and the greatest y − s_min·x of the b→a ones: two numbers, kept as the pairs come (the link's minimum
 * delays already in y). Keys are held relative to the first pair, in doubles rounded the safe way.
 */
public final class DatasheetBounds {

    /** s_max − 1 and 1 − s_min, rounded up. */
    private final double above;
    private final double below;
    /** The first pair's x and y − x since the start or the last restart; {@code Long.MIN_VALUE}: none yet. */
    private long baseX = Long.MIN_VALUE;
    private long baseDiff;
    /** min over a→b of (y − x − baseDiff) − above·(x − baseX), rounded up; +∞ while none. */
    private double upperKey = Double.POSITIVE_INFINITY;
    /** max over b→a of (y − x − baseDiff) + below·(x − baseX), rounded down; −∞ while none. */
    private double lowerKey = Double.NEGATIVE_INFINITY;

    /** The two keys and their base, to store and restore ({@link LinkStateCodec}). */
    record State(long baseX, long baseDiff, double upperKey, double lowerKey) {
    }

    /** @param maxDriftPpm R, in ppm: above 0, below 10^6 */
    public DatasheetBounds(double maxDriftPpm) {
        if (!(maxDriftPpm > 0) || maxDriftPpm >= 1e6) {
            throw new IllegalArgumentException("the largest drift must be in (0, 10^6) ppm: " + maxDriftPpm);
        }
        this.above = above(maxDriftPpm);
        this.below = below(maxDriftPpm);
    }

    State state() {
        return new State(baseX, baseDiff, upperKey, lowerKey);
    }

    void restore(State s) {
        baseX = s.baseX;
        baseDiff = s.baseDiff;
        upperKey = s.upperKey;
        lowerKey = s.lowerKey;
    }

    /** s_max − 1 under a largest drift of R ppm: (1 + R)/(1 − R) − 1, rounded up. */
    private static double above(double maxDriftPpm) {
        double r = maxDriftPpm * 1e-6;
        return Math.nextUp(Math.nextUp(2 * r) / Math.nextDown(1 - r));
    }

    /** 1 − s_min under a largest drift of R ppm: 1 − (1 − R)/(1 + R), rounded up. */
    private static double below(double maxDriftPpm) {
        double r = maxDriftPpm * 1e-6;
        return Math.nextUp(Math.nextUp(2 * r) / Math.nextDown(1 + r));
    }

    /** s_min under a largest drift of R ppm, rounded down. */
    public static double minSlope(double maxDriftPpm) {
        return Math.nextDown(1 - below(maxDriftPpm));
    }

    /** s_max under a largest drift of R ppm, rounded up. */
    public static double maxSlope(double maxDriftPpm) {
        return Math.nextUp(1 + above(maxDriftPpm));
    }

    /** A message a→b at (x, y) — or b→a — with the minimum delay applied, in order of arrival. */
    public void add(boolean aToB, long x, long y) {
        if (baseX == Long.MIN_VALUE) {
            baseX = x;
            baseDiff = Math.subtractExact(y, x);
        }
        double diff = (double) Math.subtractExact(Math.subtractExact(y, x), baseDiff);
        double since = (double) Math.subtractExact(x, baseX);
        if (aToB) {
            upperKey = Math.min(upperKey, Math.nextUp(diff - Math.nextDown(above * since)));
        } else {
            lowerKey = Math.max(lowerKey, Math.nextDown(diff + Math.nextDown(below * since)));
        }
    }

    /** Forgets every message: a clock stepped, the bounds hold from the next one on. */
    public void restart() {
        baseX = Long.MIN_VALUE;
        upperKey = Double.POSITIVE_INFINITY;
        lowerKey = Double.NEGATIVE_INFINITY;
    }

    /**
     * The least upper bound of g(t) in ns of b's clock (exact: the rounding is in the key), for t at or after every
     * message held; null while there is no a→b message.
     */
    public BigDecimal upperAt(long t) {
        if (upperKey == Double.POSITIVE_INFINITY) {
            return null;
        }
        double rest = Math.nextUp(upperKey + Math.nextUp(above * (double) Math.subtractExact(t, baseX)));
        return BigDecimal.valueOf(t).add(BigDecimal.valueOf(baseDiff)).add(new BigDecimal(rest));
    }

    /**
     * The greatest lower bound of g(t) in ns of b's clock, for t at or after every message held; null while there is
     * no b→a message.
     */
    public BigDecimal lowerAt(long t) {
        if (lowerKey == Double.NEGATIVE_INFINITY) {
            return null;
        }
        double rest = Math.nextDown(lowerKey - Math.nextUp(below * (double) Math.subtractExact(t, baseX)));
        return BigDecimal.valueOf(t).add(BigDecimal.valueOf(baseDiff)).add(new BigDecimal(rest));
    }

    /** s_min and s_max: the slopes the relation may have, rounded outwards. */
    public double minSlope() {
        return Math.nextDown(1 - below);
    }

    public double maxSlope() {
        return Math.nextUp(1 + above);
    }
}
