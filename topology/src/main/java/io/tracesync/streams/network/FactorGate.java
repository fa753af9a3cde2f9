package io.tracesync.streams.network;

import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.DoubleDouble;

/**
 * Decides whether a node's new factor is worth a record: a new reference, a bound appearing or vanishing, a bound
 * moving by more than {@code minChange} of itself, or the converted time at the node's latest local time moving
 * by more than {@code minChange} of the bound. With {@code minChange} 0 every change is emitted.
 */
public final class FactorGate {

    private final double minChange;

    public FactorGate(double minChange) {
        if (!(minChange >= 0)) {
            throw new IllegalArgumentException("factors.min.change must be >= 0: " + minChange);
        }
        this.minChange = minChange;
    }

    public boolean matters(String oldReference, Factor old, String reference, Factor now, long latestLocalNs) {
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
        double bound = Math.min(Math.max(old.upPs(), old.downPs()), Math.max(now.upPs(), now.downPs()));
        double tolerance = minChange * bound;
        if (Math.abs(now.upPs() - old.upPs()) > tolerance || Math.abs(now.downPs() - old.downPs()) > tolerance) {
            return true;
        }
        DoubleDouble shift = now.toReference().apply(latestLocalNs).subtract(old.toReference().apply(latestLocalNs));
        return Math.abs(shift.hi()) * 1000 > tolerance;
    }
}
