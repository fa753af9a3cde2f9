package io.tracesync.core.history;

import io.tracesync.core.network.Conversion;

/**
 * Which published versions a factor history keeps. Between two versions kept, a past time converts with the chord
 * of their anchors' intervals, widened by ρ′(t − a)(b − t)/2 — at most ρ′D²/8 for anchors D apart — and not with a
 * bound carried from one anchor ({@link HistoricConversion}): so versions published every few seconds as their
 * carried bounds grow need not all be kept. A version is kept when it is its node's first, has another reference or
 * another boundedness than the last kept, is anchored at or before it (it supersedes it), contradicts it (their
 * intervals at its anchor have no common point: a clock step, whose both sides the history must hold), rests on a
 * later restart of the links (the first version after a step), or is anchored at least {@code spacingNs} after it.
 * A spacing of 0 keeps every version. A {@linkplain FactorVersion#timeless timeless} version is kept only as a
 * node's first.
 */
public final class HistoryGate {

    /** The spacing of the application's history by default ({@code factors.history.spacing}), seconds. */
    public static final int DEFAULT_SPACING_S = 10;

    private final long spacingNs;

    /** @param spacingNs the local time a kept version's anchor lies after the last kept one's, at least */
    public HistoryGate(long spacingNs) {
        if (spacingNs < 0) {
            throw new IllegalArgumentException("spacing must be >= 0: " + spacingNs);
        }
        this.spacingNs = spacingNs;
    }

    public long spacingNs() {
        return spacingNs;
    }

    /** Whether the history keeps {@code v}, published after {@code lastKept} (null: none kept yet). */
    public boolean keeps(FactorVersion lastKept, FactorVersion v) {
        if (v.timeless()) {
            return lastKept == null;
        }
        if (lastKept == null || !lastKept.reference().equals(v.reference())
                || lastKept.factor().bounded() != v.factor().bounded()) {
            return true;
        }
        long d = v.anchorNs() - lastKept.anchorNs();
        return d <= 0 || d >= spacingNs || v.steadyFromNs() > lastKept.steadyFromNs() || contradicts(lastKept, v);
    }

    /** Whether the intervals of the two versions at the later one's anchor have no common point. */
    private static boolean contradicts(FactorVersion earlier, FactorVersion later) {
        Conversion before = Conversion.of(earlier.factor(), later.anchorNs());
        Conversion now = Conversion.of(later.factor(), later.anchorNs());
        return before.upperNs() != null && now.lowerNs() != null && now.lowerNs() > before.upperNs()
                || before.lowerNs() != null && now.upperNs() != null && now.upperNs() < before.lowerNs();
    }
}
