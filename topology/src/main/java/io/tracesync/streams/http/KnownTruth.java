package io.tracesync.streams.http;

import java.util.OptionalLong;

/**
 * The true clocks, where they are known — a simulated cluster, as in the demo: the HTTP side then shows, beside each
 * guaranteed interval, where the true time lies and the factor's true error ({@code /convert}, {@code /factors},
 * the live view).
 */
@FunctionalInterface
public interface KnownTruth {

    /**
     * What {@code reference}'s clock read at the true moment {@code node}'s clock read {@code localNs}; empty where
     * the truth is not known (a node or a time outside the simulated run).
     */
    OptionalLong referenceAt(String node, String reference, long localNs);
}
