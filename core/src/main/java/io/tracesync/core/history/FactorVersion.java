package io.tracesync.core.history;

import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.ClockMap;
import java.util.Objects;

/**
 * One published version of a node's factor: its number (the node's record count), the reference whose clock it
 * converts to, the factor itself — bounds that hold at its anchor and grow away from it — the wall-clock time (ms
 * since the epoch) of its publication, by which a history expires it, and the node's local time from which it
 * rests on one stretch of both clocks ({@code steadyFromNs}: where the links placed the last step of the node's or
 * the reference's clock; {@code Long.MIN_VALUE} if none is known): carried back before it, the factor need not
 * hold. With {@code link.max.drift.ppm} the application publishes besides the node's conversion under the datasheet
 * alone ({@code datasheet}, null without): valid at any time of the same stretch, its bounds growing linearly with
 * the distance from its anchor, and never interpolated — the datasheet bounds no curvature
 * ({@link NodeHistory#convertUnderDatasheet}).
 */
public record FactorVersion(long number, String reference, Factor factor, long publishedMs, long steadyFromNs,
        Factor datasheet) {

    public FactorVersion {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(factor, "factor");
    }

    /** A version without a datasheet bound. */
    public FactorVersion(long number, String reference, Factor factor, long publishedMs, long steadyFromNs) {
        this(number, reference, factor, publishedMs, steadyFromNs, null);
    }

    /** A version without a known restart nor a datasheet bound. */
    public FactorVersion(long number, String reference, Factor factor, long publishedMs) {
        this(number, reference, factor, publishedMs, Long.MIN_VALUE);
    }

    /**
     * Whether the node is its own reference: the identity, exact at every time (no other node's clock is known
     * without error).
     */
    public boolean own() {
        return factor.upPs() == 0 && factor.downPs() == 0 && factor.toReference().equals(ClockMap.IDENTITY);
    }

    /**
     * Whether no time lies behind the version: a reference whose component has no link time yet gets the identity,
     * exact and anchored at 0. It answers for no time in particular, so a history keeps it only as a node's first.
     */
    public boolean timeless() {
        return factor.anchorNs() == 0 && own();
    }

    /** The node's local time at which the bounds hold, where the data behind the version ends. */
    public long anchorNs() {
        return factor.anchorNs();
    }
}
