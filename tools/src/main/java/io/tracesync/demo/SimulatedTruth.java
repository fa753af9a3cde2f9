package io.tracesync.demo;

import io.tracesync.sim.PiecewiseLinearClock;
import io.tracesync.streams.http.KnownTruth;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * A simulated cluster's clocks as the truth beside the HTTP side's answers: the reference's reading at the first
 * true moment the node's clock read the asked time (exact, from the simulator's breakpoints).
 */
public final class SimulatedTruth implements KnownTruth {

    private final Function<String, PiecewiseLinearClock> clocks;

    /** {@code clocks} gives each node's clock and throws IllegalArgumentException for a node it does not know. */
    public SimulatedTruth(Function<String, PiecewiseLinearClock> clocks) {
        this.clocks = Objects.requireNonNull(clocks, "clocks");
    }

    @Override
    public OptionalLong referenceAt(String node, String reference, long localNs) {
        if (node.equals(reference)) {
            return OptionalLong.of(localNs);
        }
        try {
            return OptionalLong.of(clocks.apply(reference).localAt(clocks.apply(node).trueAt(localNs)));
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty(); // a node or a time outside the simulated run
        }
    }
}
