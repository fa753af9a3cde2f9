package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import org.junit.jupiter.api.Test;

class FactorGateTest {

    private static final long T = 1_000_000_000_000L;

    private static Factor factor(double offsetNs, long upPs, long downPs) {
        return new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(offsetNs)), upPs, downPs);
    }

    private final FactorGate tenPercent = new FactorGate(0.1);

    @Test
    void aNewReferenceOrABoundAppearingAlwaysMatters() {
        Factor f = factor(5, 1_000_000, 1_000_000);
        assertTrue(tenPercent.matters(null, null, "r", f, T));
        assertTrue(tenPercent.matters("r", f, "s", f, T));
        Factor open = factor(5, LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
        assertTrue(tenPercent.matters("r", open, "r", f, T));
        assertTrue(tenPercent.matters("r", f, "r", open, T));
        assertFalse(tenPercent.matters("r", f, "r", f, T));
    }

    @Test
    void boundsMovingByLessThanTheFractionDoNot() {
        Factor f = factor(5, 1_000_000, 1_000_000); // ±1 µs
        assertFalse(tenPercent.matters("r", f, "r", factor(5, 1_050_000, 960_000), T));
        assertTrue(tenPercent.matters("r", f, "r", factor(5, 1_200_000, 1_000_000), T));
        assertTrue(tenPercent.matters("r", f, "r", factor(5, 1_000_000, 800_000), T));
    }

    @Test
    void theConvertedTimeMovingByMoreThanTheFractionOfTheBoundDoes() {
        Factor f = factor(5, 1_000_000, 1_000_000);
        assertFalse(tenPercent.matters("r", f, "r", factor(5 + 50, 1_000_000, 1_000_000), T)); // 50 ns < 100 ns
        assertTrue(tenPercent.matters("r", f, "r", factor(5 + 150, 1_000_000, 1_000_000), T));
    }

    @Test
    void zeroEmitsEveryChangeAndNegativeIsRefused() {
        FactorGate every = new FactorGate(0);
        Factor f = factor(5, 1_000_000, 1_000_000);
        assertTrue(every.matters("r", f, "r", factor(5.5, 1_000_000, 1_000_000), T));
        assertFalse(every.matters("r", f, "r", f, T));
        assertThrows(IllegalArgumentException.class, () -> new FactorGate(-0.1));
    }
}
