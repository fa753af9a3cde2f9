package io.tracesync.core.history;

import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.ClockMap;
import java.util.Objects;

/**
 * One published version of a node's factor: its number (the node's record count), the reference whose clock it
 * converts to, the factor itself — bounds that hold at its anchor and grow away from it — and the wall-clock time
 * (ms since the epoch) of its publication, by which a history expires it.
 */
public record FactorVersion(long number, String reference, Factor factor, long publishedMs) {

    public FactorVersion {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(factor, "factor");
    }

    /**
     * Whether no time lies behind the version: a reference whose component has no link time yet gets the identity,
     * exact and anchored at 0. It answers for no time in particular, so a history keeps it only as a node's first.
     */
    public boolean timeless() {
        return factor.anchorNs() == 0 && factor.upPs() == 0 && factor.downPs() == 0
                && factor.toReference().equals(ClockMap.IDENTITY);
    }

    /** The node's local time at which the bounds hold, where the data behind the version ends. */
    public long anchorNs() {
        return factor.anchorNs();
    }
}
