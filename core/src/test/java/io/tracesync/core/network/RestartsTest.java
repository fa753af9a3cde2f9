package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import org.junit.jupiter.api.Test;

class RestartsTest {

    /** b's clock reads a's + 1 s; the reference r reads n's + 2 s. */
    @Test
    void aFactorRestsOnTheLaterRestartOfItsNodeAndItsReference() {
        ClockMap plusOne = ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(1e9));
        Restarts restarts = new Restarts();
        assertEquals(Long.MIN_VALUE, restarts.steadyFrom("n", "r", plusOne));
        restarts.note(new LinkKey("a", "b"), 5_000, plusOne);
        assertEquals(5_000, restarts.of("a"));
        assertEquals(1_000_005_000, restarts.of("b"), "placed on b's clock");
        restarts.note(new LinkKey("a", "b"), 3_000, plusOne);
        assertEquals(5_000, restarts.of("a"), "only forward");
        restarts.note(new LinkKey("n", "x"), 7_000, null);
        assertEquals(Long.MIN_VALUE, restarts.of("x"), "no estimate to place it on x's clock");
        ClockMap nToR = ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(2e9));
        assertEquals(7_000, restarts.steadyFrom("n", "r", nToR));
        restarts.note(new LinkKey("q", "r"), 0, ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(2e9 + 9_000)));
        assertEquals(9_000, restarts.steadyFrom("n", "r", nToR), "the reference's, placed on n's clock");
        assertEquals(2_000_009_000L, restarts.steadyFrom("r", "r", ClockMap.IDENTITY), "a reference's own");
    }

    /** A step restarts each of a node's links at its own first contradicting pair: the earliest places it. */
    @Test
    void theRestartsOfOneStepArePlacedAtTheEarliest() {
        Restarts restarts = new Restarts();
        restarts.note(new LinkKey("p", "x"), 100, ClockMap.IDENTITY);
        restarts.note(new LinkKey("x", "y"), 300, ClockMap.IDENTITY);
        restarts.note(new LinkKey("q", "x"), 250, ClockMap.IDENTITY);
        assertEquals(100, restarts.of("x"));
        long later = 300 + Restarts.SAME_STEP_NS + 1;
        restarts.note(new LinkKey("p", "x"), later, ClockMap.IDENTITY);
        assertEquals(later, restarts.of("x"), "a step of its own, the others' restarts too long before it");
        restarts.note(new LinkKey("x", "y"), later + 50, ClockMap.IDENTITY);
        assertEquals(later, restarts.of("x"));
    }
}
