package io.tracesync.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.streams.metrics.PipelineStats;
import org.junit.jupiter.api.Test;

/**
 * The live line: the figures, the share of the events in where their total is known, and the state while the
 * instance is not running (waiting for the group, say).
 */
class ProgressLineTest {

    @Test
    void showsTheStateOnlyWhileTheInstanceIsNotRunning() {
        PipelineStats s = new PipelineStats();
        s.state.set("REBALANCING");
        assertEquals("REBALANCING  events 0  pairs 0  accurate links 0  reference -  widest bound -",
                ProgressLine.format(s, 0));
        s.state.set("RUNNING");
        s.events.set(12_345);
        s.pairs.set(6_000);
        s.reference.set("n11");
        s.worstBoundPs.set(192_000_000);
        assertEquals("events 12,345  pairs 6,000  accurate links 0  reference n11  widest bound 192.0 µs",
                ProgressLine.format(s, 0));
    }

    @Test
    void showsTheShareOfTheEventsWhenTheirTotalIsKnown() {
        PipelineStats s = new PipelineStats();
        s.state.set("RUNNING");
        s.events.set(12_345);
        assertEquals("events 12,345 of 50,000 (24 %)  pairs 0  accurate links 0  reference -  widest bound -",
                ProgressLine.format(s, 50_000));
        s.events.set(50_000);
        assertEquals("events 50,000 of 50,000 (100 %)  pairs 0  accurate links 0  reference -  widest bound -",
                ProgressLine.format(s, 50_000));
    }
}
