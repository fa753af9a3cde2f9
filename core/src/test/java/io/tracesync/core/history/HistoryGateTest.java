package io.tracesync.core.history;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import org.junit.jupiter.api.Test;

class HistoryGateTest {

    private static final long SECOND = 1_000_000_000L;
    private final HistoryGate gate = new HistoryGate(10 * SECOND);

    private static FactorVersion version(long number, String reference, long offsetNs, long anchorNs, long boundPs) {
        return new FactorVersion(number, reference, new Factor(ClockMap.of(DoubleDouble.ONE,
                DoubleDouble.of(offsetNs)), boundPs, boundPs, anchorNs, 1e-6, 1e-6), number);
    }

    @Test
    void versionsWithinTheSpacingOfTheLastKeptAreLeftOut() {
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 50_000);
        assertTrue(gate.keeps(null, kept), "a node's first");
        assertFalse(gate.keeps(kept, version(2, "r", 0, 103 * SECOND, 50_000)));
        assertFalse(gate.keeps(kept, version(3, "r", 10, 109 * SECOND, 40_000)));
        assertTrue(gate.keeps(kept, version(4, "r", 0, 110 * SECOND, 50_000)), "the spacing reached");
        assertTrue(new HistoryGate(0).keeps(kept, version(2, "r", 0, 100 * SECOND + 1, 50_000)), "0 keeps all");
    }

    @Test
    void aNewReferenceBoundednessSupersedingOrContradictingVersionIsKept() {
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 50_000);
        assertTrue(gate.keeps(kept, version(2, "s", 0, 101 * SECOND, 50_000)), "another reference");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 101 * SECOND, LinkEstimate.UNBOUNDED)), "unbounded");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 100 * SECOND, 50_000)), "anchored at the last kept");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 99 * SECOND, 50_000)), "anchored before it");
        FactorVersion timeless = new FactorVersion(2, "r", Factor.REFERENCE, 2);
        assertFalse(gate.keeps(kept, timeless), "a reference without link times would supersede everything");
        assertTrue(gate.keeps(null, timeless), "but may be a node's first");
        // 1 s later the kept one's interval is ±(50 + 1,000) ns: a step of 2 µs leaves no common point
        assertTrue(gate.keeps(kept, version(2, "r", 2_200, 101 * SECOND, 50_000)), "a step");
        assertFalse(gate.keeps(kept, version(2, "r", 1_000, 101 * SECOND, 50_000)), "within the interval");
    }

    @Test
    void aVersionDepartingFromTheLastKeptBeyondTheToleranceIsKept() {
        // intervals of ±200 µs overlap: only the tolerance (10 µs by default) tells the departure
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 200_000_000);
        assertTrue(gate.keeps(kept, version(2, "r", 10_001, 103 * SECOND, 200_000_000)), "10.001 µs away");
        assertTrue(gate.keeps(kept, version(2, "r", -10_001, 103 * SECOND, 200_000_000)), "either way");
        assertFalse(gate.keeps(kept, version(2, "r", 9_999, 103 * SECOND, 200_000_000)), "within it");
        HistoryGate spacingAlone = new HistoryGate(10 * SECOND, 0);
        assertFalse(spacingAlone.keeps(kept, version(2, "r", 100_000, 103 * SECOND, 200_000_000)), "0: no tolerance");
        assertTrue(new HistoryGate(10 * SECOND, 1).keeps(kept, version(2, "r", 2, 103 * SECOND, 200_000_000)));
    }

    @Test
    void aNegativeToleranceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HistoryGate(SECOND, -1));
    }
}
