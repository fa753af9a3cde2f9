package io.tracesync.core.link;

import java.util.Arrays;

/**
 * Hands a link's pairs to every window a pair goes to — the clock model's, the unshifted ones under an excursion,
 * then the straight ones — with the {@link RedundancyFilter} as a short cut for the usual pair, redundant
 * everywhere, and rotates their epochs as the latest time moves. The filter is exact in effect: the windows end as if every pair had taken the exact path.
 */
final class WindowFeed {

    /** The model's windows, then the unshifted ones, then the straight ones. */
    private final Window[] all;
    private final int modelWindows;
    /** Where the straight windows start in {@link #all}. */
    private final int straightFrom;
    /** Null to test without. */
    private final RedundancyFilter filter;
    /** The filter's reach at most: min(tick, shortest window / 2), none with a window of no length. */
    private final long reachLimit;
    /** The earliest time at which a window rotates its epochs: until then a later pair only moves the latest time. */
    private long rotationDue = Long.MIN_VALUE;
    /** Whether the last {@link #add} changed a window's corridor. */
    private boolean changed;
    /** Pairs the filter passed. */
    private long filtered;

    WindowFeed(WindowSet windows, PlainWindows plain, StraightFits straights, boolean filtering) {
        Window[] model = windows.windows();
        Window[] unshifted = plain.windows();
        Window[] straight = straights.windows();
        this.modelWindows = model.length;
        this.straightFrom = model.length + unshifted.length;
        this.all = Arrays.copyOf(model, straightFrom + straight.length);
        System.arraycopy(unshifted, 0, all, modelWindows, unshifted.length);
        System.arraycopy(straight, 0, all, straightFrom, straight.length);
        this.filter = filtering ? new RedundancyFilter() : null;
        long shortest = windows.shortest().length;
        this.reachLimit = shortest == 0 ? Long.MAX_VALUE : Math.min(windows.tick(), shortest / 2);
    }

    /** Whether a later latest time x makes a window rotate its epochs (always after a start or a restore). */
    boolean rotates(long x) {
        return x >= rotationDue;
    }

    /**
     * Moves every window to the latest time x, each rotating its epochs when the older one has reached its end
     * ({@code first}: the link's first pair). Whether a window's corridor changed.
     */
    boolean advance(long x, boolean first) {
        clearFilter();
        boolean moved = false;
        for (Window w : all) {
            long v = w.version();
            w.advance(x, first);
            moved |= w.version() != v;
        }
        rotationDue = rotationDue();
        return moved;
    }

    /**
     * Whether the filter shows the pair redundant in every epoch (built first when it does not cover x; never
     * without a filter): then the pair changes nothing. {@code pairs}: the link's pairs so far, which the filter's
     * reach follows.
     */
    boolean passes(boolean aToB, long x, long y, long latestX, long pairs) {
        if (filter == null || !filter.covers(x) && !build(x, y, latestX, pairs)) {
            return false;
        }
        if (filter.redundant(aToB, x, y) || filter.refresh(all, aToB) && filter.redundant(aToB, x, y)) {
            filtered++;
            return true;
        }
        return false;
    }

    /**
     * A pair the filter did not pass, to every window that takes it but those where the filter shows it redundant:
     * its effect over the model's windows, combined as the strongest (FAILED, NARROWED, REDUNDANT, STALE); a pair
     * that contradicts an unshifted window starts it and the longer ones again ({@link PlainWindows#restartFrom}), a
     * straight window it contradicts starts again ({@link StraightFits#contradicted}).
     */
    PairEffect add(boolean aToB, long x, long y, long latestX, PlainWindows plain, StraightFits straights) {
        changed = false;
        PairEffect effect = PairEffect.STALE;
        boolean covered = filter != null && filter.covers(x);
        for (int i = 0; i < all.length; i++) {
            Window w = all[i];
            if (covered && filter.redundantIn(i, aToB, x, y)) {
                effect = i >= modelWindows || weight(PairEffect.REDUNDANT) <= weight(effect) ? effect
                        : PairEffect.REDUNDANT;
                continue;
            }
            long v = w.version();
            PairEffect e = w.add(aToB, x, y, latestX);
            if (i < modelWindows) {
                effect = weight(e) > weight(effect) ? e : effect;
            } else if (e == PairEffect.FAILED) {
                if (i < straightFrom) {
                    plain.restartFrom(i - modelWindows, x);
                } else {
                    straights.contradicted(i - straightFrom, x);
                }
                clearFilter();
                covered = false;
            }
            changed |= w.version() != v;
            if (covered && w.narrowed() != 0) {
                filter.narrowed(i, w.narrowed(), aToB);
            }
        }
        return effect;
    }

    /** Whether the last {@link #add} changed a window's corridor. */
    boolean changed() {
        return changed;
    }

    /** Pairs the filter passed. */
    long filtered() {
        return filtered;
    }

    /** Forgets the filter's thresholds: a corridor was replaced. */
    void clearFilter() {
        if (filter != null) {
            filter.clear();
        }
    }

    /**
     * Builds the filter over [latest − r/2, latest + r], r following the pair rate ({@link RedundancyFilter#reach})
     * within min(tick, shortest window / 2), cut to the older epochs' ranges, to the newer epochs' ranges or before
     * them (a linear window's newer epoch starts after the latest time), and to before the next rotation: every
     * epoch takes all of the interval or none of it. Whether the interval holds x (else nothing was built).
     */
    private boolean build(long x, long y, long latestX, long pairs) {
        long reach = Math.min(filter.reach(pairs), reachLimit);
        if (rotationDue == Long.MIN_VALUE) {
            rotationDue = rotationDue();
        }
        long from = latestX >= Long.MIN_VALUE + reach ? latestX - reach / 2 : Long.MIN_VALUE;
        long to = Math.min(rotationDue - 1, latestX <= Long.MAX_VALUE - reach ? latestX + reach : Long.MAX_VALUE);
        for (Window w : all) {
            from = Math.max(from, w.olderFrom());
            if (w.newer() != null && w.newerFrom() <= latestX) {
                from = Math.max(from, w.newerFrom());
            } else if (w.newer() != null) {
                to = Math.min(to, w.newerFrom() - 1);
            }
        }
        if (x < from || x > to) {
            return false;
        }
        filter.build(all, from, to, y);
        return true;
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
}
