package io.tracesync.core.network;

import io.tracesync.core.numeric.DoubleDouble;

/**
 * Decides whether a node's new factor is worth a record: a new reference, a bound appearing or vanishing, a bound
 * moving by more than {@code minChange} of itself, or the converted time moving by more than {@code minChange} of the
 * bound — all at the new factor's anchor, where its component's data now ends. Not at each factor's own anchor: a
 * published factor's bound grows with the distance from its anchor, so one bound as tightly there as the new one is
 * at its anchor is renewed once that growth passes {@code minChange}. With {@code minChange} 0 every change is
 * emitted. Under an offset excursion Φ every bound of a node but the reference holds at least 2Φ on each side beyond
 * the pairs' own (the curve's bounds from pairs moved outward by Φ, then Φ for the node's excursion), and Φ more per
 * further link of its path ({@link AnchoredFactor#excursionPs}), constants that move with nothing: the bound the
 * changes are compared with is taken without them.
 */
public final class FactorGate {

    /** {@code factors.min.change}'s default. */
    public static final double DEFAULT_MIN_CHANGE = 0.1;

    private final double minChange;
    /** Φ in ps ({@link NetworkOptions#excursionPs}). */
    private final long excursionPs;

    public FactorGate(double minChange) {
        this(minChange, 0);
    }

    public FactorGate(double minChange, long excursionPs) {
        if (!(minChange >= 0)) {
            throw new IllegalArgumentException("factors.min.change must be >= 0: " + minChange);
        }
        this.minChange = minChange;
        this.excursionPs = excursionPs;
    }

    /** Whether {@code now} replaces {@code old}, its bounds holding 2Φ of excursions on each side. */
    public boolean matters(String oldReference, Factor old, String reference, Factor now) {
        return matters(oldReference, old, reference, now, 0);
    }

    /**
     * Whether {@code now} replaces {@code old}, its bounds holding {@code heldPs} of excursions on each side (2Φ where
     * that is more).
     */
    public boolean matters(String oldReference, Factor old, String reference, Factor now, long heldPs) {
        if (old == null || !oldReference.equals(reference) || old.bounded() != now.bounded()) {
            return true;
        }
        if (old.equals(now)) {
            return false;
        }
        if (minChange == 0) {
            return true;
        }
        if (!now.bounded()) {
            return !old.toReference().equals(now.toReference());
        }
        long t = now.anchorNs();
        long oldUp = old.upAtPs(t);
        long oldDown = old.downAtPs(t);
        long nowUp = now.upPs(); // t is its anchor
        long nowDown = now.downPs();
        if (Math.max(oldUp, oldDown) == LinkEstimate.UNBOUNDED) {
            return true; // grown past what a long holds, while the new one is bounded at its anchor
        }
        double held = Math.max(2.0 * excursionPs, heldPs);
        double bound = Math.max(0, Math.min(Math.max(oldUp, oldDown), Math.max(nowUp, nowDown)) - held);
        double tolerance = minChange * bound;
        if (Math.abs(nowUp - oldUp) > tolerance || Math.abs(nowDown - oldDown) > tolerance) {
            return true;
        }
        DoubleDouble shift = now.toReference().apply(t).subtract(old.toReference().apply(t));
        return Math.abs(shift.hi()) * 1000 > tolerance;
    }
}
