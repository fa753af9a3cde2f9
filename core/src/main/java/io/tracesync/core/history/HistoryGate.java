package io.tracesync.core.history;

import io.tracesync.core.network.Conversion;
import java.math.BigDecimal;
import java.util.List;

/**
 * Which published versions a factor history keeps. Between two versions kept, a past time converts with the chord
 * of their anchors' intervals, widened by ρ′(t − a)(b − t)/2 — at most ρ′D²/8 for anchors D apart — and not with a
 * bound carried from one anchor ({@link HistoricConversion}): so versions published every few seconds as their
 * carried bounds grow need not all be kept. A version is kept when it is its node's first, has another reference or
 * another boundedness than the last kept, is anchored at or before it (it supersedes it), contradicts it (their
 * intervals at its anchor have no common point: a clock step, whose both sides the history must hold), rests on a
 * later restart of the links (the first version after a step), is anchored at least {@code spacingNs} after it, or
 * departs from it: the last kept version's map, carried to the new one's anchor, answers there more than
 * {@code toleranceNs} away from the new one's (a deadband, as a process historian's exception deviation). The
 * spacing alone would draw the chord across whatever the relation did between — a daemon's slew of 100 µs within 6 s
 * becomes a line over 10 s, and the answers between lag it further than the versions in force did
 * (docs/ACCURACY.md, "Answers after the fact").
 *
 * <p>Where a version departs, contradicts or rests on a later restart, the version published just before it is kept
 * too ({@link #kept}), as a swinging-door historian keeps the last point its door held [Bristol 1990]: every version
 * left out since the last kept answered at its anchor within the tolerance of the last kept one's map, and so did
 * the one before the departure; the chord to it therefore answers at every left-out version's anchor within twice
 * the tolerance of that version's own answer, and the departure itself is drawn between consecutive versions, as
 * live answered it. Across a restart the version before it answers up to it, not one carried from further back —
 * unless that version lies past the restart's place, made before the restart was known (the last kept one answers
 * up to the restart then, as before). A spacing of 0 keeps every version; a tolerance of 0 leaves the spacing alone
 * to decide. A {@linkplain FactorVersion#timeless timeless} version is kept only as a node's first.
 */
public final class HistoryGate {

    /** The spacing of the application's history by default ({@code factors.history.spacing}), seconds. */
    public static final int DEFAULT_SPACING_S = 10;

    /** The tolerance of the application's history by default ({@code factors.history.tolerance}), µs. */
    public static final int DEFAULT_TOLERANCE_US = 5;

    private final long spacingNs;
    private final BigDecimal toleranceNs;

    /** A gate with the default tolerance. */
    public HistoryGate(long spacingNs) {
        this(spacingNs, DEFAULT_TOLERANCE_US * 1_000L);
    }

    /**
     * @param spacingNs the local time a kept version's anchor lies after the last kept one's, at least
     * @param toleranceNs how far a version may answer at its anchor from the last kept version's map and be left out;
     *     0: any distance
     */
    public HistoryGate(long spacingNs, long toleranceNs) {
        if (spacingNs < 0) {
            throw new IllegalArgumentException("spacing must be >= 0: " + spacingNs);
        }
        if (toleranceNs < 0) {
            throw new IllegalArgumentException("tolerance must be >= 0: " + toleranceNs);
        }
        this.spacingNs = spacingNs;
        this.toleranceNs = toleranceNs == 0 ? null : BigDecimal.valueOf(toleranceNs);
    }

    public long spacingNs() {
        return spacingNs;
    }

    /** Whether the history keeps {@code v}, published after {@code lastKept} (null: none kept yet). */
    public boolean keeps(FactorVersion lastKept, FactorVersion v) {
        return why(lastKept, v) != Keep.NO;
    }

    /**
     * The versions the history keeps, in order, when {@code v} is published: none, {@code v}, or the version
     * published just before it and {@code v} (see the class comment).
     *
     * @param lastKept the last version kept, null for none
     * @param previous the version of the node published just before {@code v} (the last kept or one left out), null
     *     for none
     */
    public List<FactorVersion> kept(FactorVersion lastKept, FactorVersion previous, FactorVersion v) {
        Keep why = why(lastKept, v);
        if (why == Keep.NO) {
            return List.of();
        }
        return why != Keep.ALONE && between(lastKept, previous, v)
                && (why == Keep.DEPARTS || !restartBetween(lastKept, previous, v)) ? List.of(previous, v) : List.of(v);
    }

    /** Why a version is kept: not at all, alone, or with the version before it where that lies between. */
    private enum Keep { NO, ALONE, DEPARTS, RESTARTS }

    private Keep why(FactorVersion lastKept, FactorVersion v) {
        if (v.timeless()) {
            return lastKept == null ? Keep.ALONE : Keep.NO;
        }
        if (lastKept == null || !lastKept.reference().equals(v.reference())
                || lastKept.factor().bounded() != v.factor().bounded()) {
            return Keep.ALONE;
        }
        long d = v.anchorNs() - lastKept.anchorNs();
        if (d <= 0) {
            return Keep.ALONE;
        }
        if (v.steadyFromNs() > lastKept.steadyFromNs()) {
            return Keep.RESTARTS;
        }
        if (breaksAway(lastKept, v)) {
            return Keep.DEPARTS;
        }
        return d >= spacingNs ? Keep.ALONE : Keep.NO;
    }

    /**
     * Whether the version published before {@code v}, left out, lies between the last kept and {@code v}, with
     * their reference and boundedness.
     */
    private static boolean between(FactorVersion lastKept, FactorVersion previous, FactorVersion v) {
        return previous != null && !previous.timeless() && lastKept.number() < previous.number()
                && previous.number() < v.number() && lastKept.anchorNs() < previous.anchorNs()
                && previous.anchorNs() < v.anchorNs() && previous.reference().equals(v.reference())
                && previous.factor().bounded() == v.factor().bounded();
    }

    /**
     * Whether the restart {@code v} rests on lies between the last kept and the previous version, which was then made
     * before the restart was known, on its far side.
     */
    private static boolean restartBetween(FactorVersion lastKept, FactorVersion previous, FactorVersion v) {
        return lastKept.anchorNs() < v.steadyFromNs() && v.steadyFromNs() <= previous.anchorNs();
    }

    /**
     * Whether the intervals of the two versions at the later one's anchor have no common point, or the earlier one's
     * map answers there beyond the tolerance from the later one's.
     */
    private boolean breaksAway(FactorVersion earlier, FactorVersion later) {
        Conversion before = Conversion.of(earlier.factor(), later.anchorNs());
        Conversion now = Conversion.of(later.factor(), later.anchorNs());
        return before.upperNs() != null && now.lowerNs() != null && now.lowerNs() > before.upperNs()
                || before.lowerNs() != null && now.upperNs() != null && now.upperNs() < before.lowerNs()
                || toleranceNs != null && before.referenceNs().subtract(now.referenceNs()).abs()
                        .compareTo(toleranceNs) > 0;
    }
}
