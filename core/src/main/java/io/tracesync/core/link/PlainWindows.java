package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;

/**
 * Under an excursion Φ ({@link LinkOptions#excursionNs}), the clock model's windows on the pairs as they are,
 * unshifted. The bounds rest on the shifted windows, whose corridors hold the chord of the curve the relation departs
 * from by at most Φ; but a corridor every point of which moved outward by Φ has its extreme lines on farther points,
 * and its bisector is looser than the pairs allow. So the estimate is an unshifted window's own, chosen as the
 * intervals of windows of growing length are in adaptive estimation [Goldenshluger &amp; Nemirovski 1997]: of the
 * windows whose estimate at the latest tick and every shorter one's lie within each other's bounds there, the
 * narrowest. On clocks that keep to the model every window's bounds hold the relation, and the choice is the
 * narrowest, the estimate of the link without Φ. Where a daemon slews the relation away from the curve and no pair
 * contradicts it, a longer window's line runs through the slew while its bounds narrow around it; a shorter window's
 * bounds, on the pairs since, leave it out, and the estimate follows the relation. A pair that contradicts an
 * unshifted window starts it and the longer ones again; the shorter ones go on.
 *
 * <p>The estimate answers from the latest time on: its slope is kept within the link's slope range (through the same
 * point at the latest time), and where it lies outside the link's bounds at the latest time it is moved the least
 * that puts it inside — as a straight window's fit ({@link StraightFits}), so the link's summary, its bounds around
 * the estimate carried by its slope range, holds as the answering window's.
 */
final class PlainWindows {

    /** How far inside the bounds the estimate must lie, ns, for the comparison in doubles (within 2 ns) to hold. */
    private static final double MARGIN_NS = 4;

    private final Window[] plain;
    /** The link's version the window {@link #chosen} was chosen for. */
    private long chosenVersion = -1;
    /** The unshifted window chosen at the latest tick, -1 for none. */
    private int chosen = -1;
    /** The link's version and latest time {@link #agrees} was decided for. */
    private long checkedVersion = -1;
    private long checkedAt;
    /** The estimate {@link #agrees} approved, null for none. */
    private ClockMap estimate;

    PlainWindows(LinkOptions options) {
        this.plain = options.excursionNs() == 0 ? new Window[0] : WindowSet.of(options, 0);
    }

    /** The unshifted windows, shortest first; none without an excursion. */
    Window[] windows() {
        return plain;
    }

    /** Pairs contradicted the model (shifted by Φ) at x: every unshifted window starts again, as the link's do. */
    void restartAt(long x) {
        restartFrom(0, x);
    }

    /**
     * A pair at x contradicted the unshifted window {@code i}: it starts again, and so does every longer one (which
     * holds the same pairs and older ones); the shorter ones, which the pairs since their start do not contradict,
     * go on.
     */
    void restartFrom(int i, long x) {
        for (int k = i; k < plain.length; k++) {
            plain[k].restartAt(x);
        }
    }

    /**
     * Whether an unshifted window gives the estimate: one is chosen at the latest tick (see the class comment; again
     * when the link's {@code version} moved, which it does whenever a window's corridor changes or the tick moves),
     * the answering window is ACCURATE, and the window's line, its slope kept within the link's slope range, can be
     * moved within the answering window's bounds at the latest time. A function of the windows and the latest time.
     */
    boolean agrees(long version, long latestX, WindowSet set) {
        if (plain.length == 0) {
            return false;
        }
        if (chosenVersion != version) {
            chosenVersion = version;
            chosen = consistent(set.tickOf(latestX));
        }
        if (checkedVersion != version || checkedAt != latestX) {
            checkedVersion = version;
            checkedAt = latestX;
            estimate = null;
            Window a = set.answering();
            if (chosen >= 0 && a.quality() == LinkQuality.ACCURATE) {
                ClockMap line = withinRange(plain[chosen].estimate(), latestX, set.slopeLimit(-1, version),
                        set.slopeLimit(+1, version));
                estimate = inside(a, line, latestX);
            }
        }
        return estimate != null;
    }

    /** The estimate {@link #agrees} approved. */
    ClockMap estimate() {
        return estimate;
    }

    /**
     * Of the ACCURATE unshifted windows, those whose estimate at t and every shorter ACCURATE one's lie within each
     * other's bounds there, the narrowest at t, the longer on a tie; -1 for none.
     */
    private int consistent(long t) {
        int best = -1;
        double bestWidth = Double.NaN;
        for (int i = 0; i < plain.length; i++) {
            Window w = plain[i];
            if (w.quality() != LinkQuality.ACCURATE) {
                continue;
            }
            boolean consistent = true;
            for (int j = 0; j < i && consistent; j++) {
                Window s = plain[j];
                consistent = s.quality() != LinkQuality.ACCURATE || within(w, s, t) && within(s, w, t);
            }
            double width = w.widthAt(t);
            if (consistent && (best < 0 || width <= bestWidth || Double.isNaN(bestWidth))) {
                best = i;
                bestWidth = width;
            }
        }
        return best;
    }

    /** Whether window w's estimate at t lies within window s's bounds there (within the doubles' 2 ns). */
    private static boolean within(Window w, Window s, long t) {
        long at = w.estimate().applyRounded(t);
        double e = s.outward(t, s.olderStart()) + 2;
        return !(s.older().upperOffset(t, at) + e < 0) && !(s.older().lowerOffset(t, at) - e > 0);
    }

    /** The line with its slope moved into [low, high] (NaN: open) through its own point at x. */
    private static ClockMap withinRange(ClockMap line, long x, double low, double high) {
        double slope = line.slope().hi();
        double kept = slope < low ? low : slope > high ? high : slope;
        return kept == slope ? line : ClockMap.through(x, line.apply(x), DoubleDouble.of(kept));
    }

    /**
     * The line moved the least that puts it within window a's bounds at x, by the margin the comparison in doubles
     * needs; null where they are open or too narrow for it.
     */
    private static ClockMap inside(Window a, ClockMap line, long x) {
        long at = line.applyRounded(x);
        double e = a.outward(x, a.olderStart()) - MARGIN_NS;
        double up = a.older().upperOffset(x, at) + e;
        double down = a.older().lowerOffset(x, at) - e;
        if (!(down <= up)) {
            return null;
        }
        double move = up < 0 ? Math.floor(up) : down > 0 ? Math.ceil(down) : 0;
        return move == 0 ? line : ClockMap.through(x, line.apply(x).add(DoubleDouble.of(move)), line.slope());
    }
}
