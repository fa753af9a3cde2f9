package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth.Jump;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class JumpDetectionTest {

    private static LinkTiming failing(Long... at) {
        return new LinkTiming(0, OptionalLong.empty(), List.of(at));
    }

    @Test
    void aJumpIsDetectedByTheFirstFailOfOneOfItsNodesLinksBeforeItsNextJump() {
        Map<LinkKey, LinkTiming> links = Map.of(
                new LinkKey("a", "b"), failing(50L, 400L),
                new LinkKey("a", "c"), failing(130L),
                new LinkKey("b", "c"), failing(101L));
        List<Jump> jumps = List.of(
                new Jump("a", 100, 1_000_000),  // a's links fail at 130 and 400: 30 after
                new Jump("c", 120, 2_000),      // c's at 130: 10 after
                new Jump("b", 300, 5_000_000),  // b's at 400, but b jumps again at 350 first: missed
                new Jump("b", 350, 7_000),      // b's at 400: 50 after
                new Jump("d", 10, 3_000));      // no link: missed
        JumpDetection d = JumpDetection.of(jumps, links);
        assertArrayEquals(new long[] {10, 30, 50}, d.delaysNs());
        assertArrayEquals(new long[] {3_000, 5_000_000}, d.missedNs());
        assertEquals("clock jumps: 5, 3 detected by a FAIL of one of the node's links, 30 ns after the jump at the "
                + "median, 50 ns at most; 2 not detected (sizes 3.0 µs to 5.0 ms)", d.finding());
        assertTrue(d.pendingAt(100, 0) && d.pendingAt(130, 0) && d.pendingAt(135, 5), "a's jump until its detection");
        assertFalse(d.pendingAt(5, 0), "before any jump");
        assertTrue(d.pendingAt(1_000_000, 0), "b's first jump was never detected: pending for good");
        JumpDetection one = JumpDetection.of(List.of(new Jump("a", 100, 1_000_000)), links);
        assertFalse(one.pendingAt(131, 0) || one.pendingAt(136, 5), "after its detection and the settling time");
    }
}
