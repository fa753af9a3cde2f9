package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;

/**
 * Under an excursion Φ ({@link LinkOptions#excursionNs}), windows on the pairs as they are, unshifted: one of each
 * length of the clock model's and one a {@link LinkOptions#WINDOW_RATIO}th of its shortest. The bounds rest on the
 * shifted windows, whose corridors hold the chord of the curve the relation departs from by at most Φ; but a corridor
 * every point of which moved outward by Φ has its extreme lines on farther points, and its bisector is looser than the
 * pairs allow. So the estimate is an unshifted window's own, chosen as in adaptive estimation by the intersection of
 * confidence intervals [Goldenshluger &amp; Nemirovski 1997]: going from the shortest window to longer ones, a window
 * is admitted while its estimate at the latest tick and every shorter admitted one's lie within each other's bounds
 * there, and the first that does not stops the search; of those admitted, the narrowest at the tick answers, the
 * shortest window only when no other is admitted. On clocks that keep to the model every window's bounds hold the
 * relation, the shortest window's estimate lies within the others' and the choice is the narrowest of the model's
 * lengths, the estimate of the link without Φ. Where a daemon slews the relation away from the curve and no pair
 * contradicts it, a longer window's line runs through the slew while its bounds narrow around it; a shorter window's
 * bounds, on the pairs since, leave it out, and the estimate follows the relation. The shortest window is there to
 * show that of the model's shortest: a slew of 100 µs within 6 s can squeeze a 30-s window to a corridor several
 * times narrower than the delays allow, around a line tens of µs off, while a 7.5-s window's bounds hold an estimate
 * within a µs. It answers only then, its bisector on a quarter of the pairs being the noisier, and takes part only
 * while it has the pairs on both sides ({@link #takePart}). A pair that contradicts an unshifted window starts it and
 * the longer ones again; the shorter ones go on.
 *
 * <p>The estimate answers from the latest time on: its slope is kept within the link's slope range (through the same
 * point at the latest time), and where it lies outside the link's bounds at the latest time it is moved the least
 * that puts it inside — as a straight window's fit ({@link StraightFits}), so the link's summary, its bounds around
 * the estimate carried by its slope range, holds as the answering window's.
 *
 * <p>Without an excursion the model's windows are the pairs' own, and the same choice runs on them: where it is the
 * answering window, that window's own estimate answers, as on clocks within the model nearly always; where a slew
 * beyond the model runs through a longer window without a pair contradicting it, a shorter window's estimate,
 * moved within the answering window's bounds.
 */
final class PlainWindows {

    /** How far inside the bounds the estimate must lie, ns, for the comparison in doubles (within 2 ns) to hold. */
    private static final double MARGIN_NS = 4;
    /** How many times wider than the next window's the shorter window's bounds may be for it to take part. */
    private static final double SHORTER_WIDTH = 2 * LinkOptions.WINDOW_RATIO;

    private final Window[] plain;
    /** Whether {@code plain[0]} is the window shorter than the model's. */
    private final boolean shorter;
    /** Per window, whether it takes part in the choice and its width, as the latest choice found them. */
    private final boolean[] takes;
    private final double[] widths;
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
        long[] lengths = lengths(options);
        this.plain = WindowSet.of(options, lengths, 0);
        this.shorter = lengths.length > options.windows().length;
        int most = Math.max(lengths.length, options.windows().length);
        this.takes = new boolean[most];
        this.widths = new double[most];
    }

    /**
     * The unshifted windows' lengths under these options, shortest first: none without an excursion, else a
     * {@link LinkOptions#WINDOW_RATIO}th of the model's shortest window (unless that has no end) and the model's.
     */
    static long[] lengths(LinkOptions options) {
        if (options.excursionNs() == 0) {
            return new long[0];
        }
        long[] model = options.windows();
        long shorter = model[0] / LinkOptions.WINDOW_RATIO;
        if (shorter == 0) {
            return model;
        }
        long[] lengths = new long[model.length + 1];
        lengths[0] = shorter;
        System.arraycopy(model, 0, lengths, 1, model.length);
        return lengths;
    }

    /** The unshifted windows, shortest first; none without an excursion (the choice then runs on the model's). */
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
     * Whether an unshifted window gives the estimate — without an excursion, a model window other than the answering
     * one: one is chosen at the latest tick (see the class comment; again when the link's {@code version} moved,
     * which it does whenever a window's corridor changes or the tick moves), the answering window is ACCURATE, and
     * the window's line, its slope kept within the link's slope range, can be moved within the answering window's
     * bounds at the latest time. A function of the windows and the latest time.
     */
    boolean agrees(long version, long latestX, WindowSet set) {
        Window[] c = candidates(set);
        // without an excursion only a window shorter than the answering one, the narrowest, can be chosen otherwise
        int count = plain.length > 0 ? plain.length : set.answer() + 1;
        if (plain.length == 0 && count < 2) {
            return false;
        }
        if (chosenVersion != version) {
            chosenVersion = version;
            chosen = consistent(c, count, set.tickOf(latestX));
            if (plain.length == 0 && chosen == set.answer()) {
                chosen = -1; // the answering window's own estimate, as without the choice
            }
        }
        if (checkedVersion != version || checkedAt != latestX) {
            checkedVersion = version;
            checkedAt = latestX;
            estimate = null;
            Window a = set.answering();
            if (chosen >= 0 && a.quality() == LinkQuality.ACCURATE) {
                ClockMap line = withinRange(c[chosen].estimate(), latestX, set.slopeLimit(-1, version),
                        set.slopeLimit(+1, version));
                estimate = inside(a, line, latestX);
            }
        }
        return estimate != null;
    }

    /** The windows the estimate is chosen among: the unshifted ones, or without an excursion the model's. */
    private Window[] candidates(WindowSet set) {
        return plain.length > 0 ? plain : set.windows();
    }

    /** The estimate {@link #agrees} approved. */
    ClockMap estimate() {
        return estimate;
    }

    /**
     * The window chosen at t (see the class comment): going from the shortest, each window that takes part
     * ({@link #takePart}) admitted while its estimate and every shorter admitted one's lie within each other's bounds
     * at t; of those, the narrowest at t (the longer on a tie), the shortest only when it is the one admitted; -1 for
     * none. Of the first {@code count} windows.
     */
    private int consistent(Window[] windows, int count, long t) {
        takePart(windows, count, t);
        int best = -1;
        for (int i = 0; i < count; i++) {
            if (i > 1) {
                measure(windows, i, t);
            }
            if (!takes[i]) {
                continue;
            }
            Window w = windows[i];
            for (int j = 0; j < i; j++) {
                if (takes[j] && !(within(w, windows[j], t) && within(windows[j], w, t))) {
                    return best;
                }
            }
            if (best < 0 || shorter && best == 0 || widths[i] <= widths[best] || Double.isNaN(widths[best])) {
                best = i;
            }
        }
        return best;
    }

    /**
     * Whether the two shortest windows take part in the choice at t, and their widths there: the ACCURATE ones, the
     * shorter window only while its bounds are at most {@value #SHORTER_WIDTH} times as wide as the next window's. It
     * holds a quarter of that one's pairs, so its corridor exceeds the delays some 4 times as much; far wider, it lacks
     * the pairs on one side (its bisector then lies far from the relation) and the model's windows judge better. The
     * longer windows are measured as the search reaches them.
     */
    private void takePart(Window[] windows, int count, long t) {
        for (int i = 0; i < Math.min(2, count); i++) {
            measure(windows, i, t);
        }
        if (shorter && takes[0] && takes[1]) {
            takes[0] = widths[0] <= SHORTER_WIDTH * widths[1];
        }
    }

    /** Whether window i is ACCURATE, and its width at t. */
    private void measure(Window[] windows, int i, long t) {
        takes[i] = windows[i].quality() == LinkQuality.ACCURATE;
        widths[i] = takes[i] ? windows[i].widthAt(t) : Double.NaN;
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
