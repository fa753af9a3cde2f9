package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.eval.Departures.Departure;
import io.tracesync.sim.GroundTruth.Jump;
import io.tracesync.sim.GroundTruth.Slew;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DeparturesTest {

    private static LinkTiming failing(Long... at) {
        return new LinkTiming(0, OptionalLong.empty(), List.of(at));
    }

    private static final Map<LinkKey, LinkTiming> LINKS = Map.of(
            new LinkKey("a", "b"), failing(50L, 400L),
            new LinkKey("a", "c"), failing(130L),
            new LinkKey("b", "c"), failing(101L));

    @Test
    void aJumpIsDetectedByTheFirstFailOfOneOfItsNodesLinksBeforeItsNextDeparture() {
        List<Jump> jumps = List.of(
                new Jump("a", 100, 1_000_000),  // a's links fail at 130 and 400: 30 after
                new Jump("c", 120, 2_000),      // c's at 130: 10 after
                new Jump("b", 300, 5_000_000),  // b's at 400, but b jumps again at 350 first: missed
                new Jump("b", 350, 7_000),      // b's at 400: 50 after
                new Jump("d", 10, 3_000));      // no link: missed
        Departures d = Departures.of(jumps.stream().map(Departure::of).toList(), LINKS);
        assertArrayEquals(new long[] {10, 30, 50}, d.delaysNs());
        assertArrayEquals(new long[] {3_000, 5_000_000}, d.missedNs());
        assertEquals("clock jumps: 5, 3 detected by a FAIL of one of the node's links, 30 ns after the departure at "
                + "the median, 50 ns at most; 2 not detected (sizes 3.0 µs to 5.0 ms)", d.finding("clock jumps"));
        assertTrue(d.pendingAt(100, 0) && d.pendingAt(130, 0) && d.pendingAt(135, 5), "a's jump until its detection");
        assertFalse(d.pendingAt(5, 0), "before any departure");
        assertTrue(d.pendingAt(1_000_000, 0), "a jump never detected keeps the clock off: pending for good");
        Departures one = Departures.of(List.of(Departure.of(new Jump("a", 100, 1_000_000))), LINKS);
        assertFalse(one.pendingAt(99, 0), "before the jump");
        assertFalse(one.pendingAt(131, 0) || one.pendingAt(136, 5), "after its detection and the settling time");
    }

    @Test
    void aSlewNotDetectedOpensNoWindow() {
        Departures d = Departures.of(List.of(Departure.of(new Slew("a", 100, -50_000_000)),
                Departure.of(new Slew("b", 410, 40_000)), Departure.of(new Jump("c", 500, 1_000))), LINKS);
        assertEquals(List.of(100L, 410L), d.slews().departures().stream().map(Departure::trueNs).toList());
        assertArrayEquals(new long[] {130, Long.MAX_VALUE}, d.slews().detectedNs());
        assertArrayEquals(new long[] {40_000}, d.slews().missedNs());
        assertTrue(d.pendingAt(120, 0) && d.pendingAt(140, 10), "a's slew until 10 after its detection");
        assertFalse(d.pendingAt(141, 10) || d.pendingAt(450, 10), "b's slew went unseen: its answers are the model's");
        assertTrue(d.pendingAt(600, 0), "c's jump, never detected");
        assertEquals(1, d.jumps().departures().size());
    }

    @Test
    void theWindowsCoverTheirUnionWithinTheRun() {
        Departures d = Departures.of(List.of(Departure.of(new Slew("a", 100, 1)), Departure.of(new Slew("c", 120, 1)),
                Departure.of(new Jump("b", 420, 1))), LINKS);
        // a: 100..130+5, c: 120..130+5 (overlapping), b's jump never detected: 420 to the end
        assertEquals(35 + 80, d.windowsNs(0, 500, 5));
        assertEquals(15, d.windowsNs(120, 410, 5));
    }
}
