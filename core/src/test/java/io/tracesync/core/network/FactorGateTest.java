package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(tenPercent.matters(null, null, "r", f));
        assertTrue(tenPercent.matters("r", f, "s", f));
        Factor open = factor(5, LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
        assertTrue(tenPercent.matters("r", open, "r", f));
        assertTrue(tenPercent.matters("r", f, "r", open));
        assertFalse(tenPercent.matters("r", f, "r", f));
    }

    @Test
    void boundsMovingByLessThanTheFractionDoNot() {
        Factor f = factor(5, 1_000_000, 1_000_000); // ±1 µs
        assertFalse(tenPercent.matters("r", f, "r", factor(5, 1_050_000, 960_000)));
        assertTrue(tenPercent.matters("r", f, "r", factor(5, 1_200_000, 1_000_000)));
        assertTrue(tenPercent.matters("r", f, "r", factor(5, 1_000_000, 800_000)));
    }

    @Test
    void theConvertedTimeMovingByMoreThanTheFractionOfTheBoundDoes() {
        Factor f = factor(5, 1_000_000, 1_000_000);
        assertFalse(tenPercent.matters("r", f, "r", factor(5 + 50, 1_000_000, 1_000_000))); // 50 ns < 100 ns
        assertTrue(tenPercent.matters("r", f, "r", factor(5 + 150, 1_000_000, 1_000_000)));
    }

    @Test
    void aFactorWhoseBoundGrewWithItsAgeIsRenewed() {
        long minute = 60_000_000_000L;
        ClockMap map = ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(5));
        // ±1 µs at its anchor, growing by 2 ns/s (linear clocks): a minute later ±1.12 µs, against a new ±1 µs.
        Factor aged = new Factor(map, 1_000_000, 1_000_000, T - minute, 2e-9, 0);
        assertTrue(tenPercent.matters("r", aged, "r", new Factor(map, 1_000_000, 1_000_000, T, 2e-9, 0)));
        Factor halfway = new Factor(map, 1_000_000, 1_000_000, T - minute / 2, 2e-9, 0);
        assertFalse(tenPercent.matters("r", aged, "r", halfway), "6 % wider half a minute later");
        // Under the clock model, no linear growth: curvature·d²/2 = 0.15 µs after a minute, 0.0375 µs after half.
        double curvature = 2 * 150_000 / (1000.0 * minute * minute);
        Factor curved = new Factor(map, 1_000_000, 1_000_000, T - minute, 0, 0, curvature);
        assertTrue(tenPercent.matters("r", curved, "r", new Factor(map, 1_000_000, 1_000_000, T, 0, 0, curvature)));
        assertFalse(tenPercent.matters("r", curved,
                "r", new Factor(map, 1_000_000, 1_000_000, T - minute / 2, 0, 0, curvature)));
    }

    @Test
    void aBoundGrownPastWhatALongHoldsIsRenewed() {
        Factor steep = new Factor(ClockMap.IDENTITY, 1_000_000, 1_000_000, 0, 1e9, 1e9);
        Factor fresh = new Factor(ClockMap.IDENTITY, 1_000_000, 1_000_000, Long.MAX_VALUE / 2, 1e9, 1e9);
        assertTrue(tenPercent.matters("r", steep, "r", fresh));
    }

    /**
     * Under an excursion Φ a factor's bound holds 2Φ on each side at least, more where its path has more links: the
     * changes are compared with the bound without what it says it holds.
     */
    @Test
    void theExcursionsABoundHoldsAreLeftOutOfIt() {
        long phi = 100_000_000; // 100 µs
        FactorGate gate = new FactorGate(0.1, phi);
        Factor f = factor(5, 3 * phi + 8_000_000, 3 * phi + 8_000_000); // two links: 3Φ + 8 µs
        Factor moved = factor(5 + 2_000, 3 * phi + 8_000_000, 3 * phi + 8_000_000); // 2 µs
        assertFalse(gate.matters("r", f, "r", moved), "against 2Φ off the bound: 10 % of 108 µs");
        assertFalse(gate.matters("r", f, "r", moved, phi), "2Φ where that is more");
        assertTrue(gate.matters("r", f, "r", moved, 3 * phi), "10 % of the 8 µs left");
    }

    @Test
    void zeroEmitsEveryChangeAndNegativeIsRefused() {
        FactorGate every = new FactorGate(0);
        Factor f = factor(5, 1_000_000, 1_000_000);
        assertTrue(every.matters("r", f, "r", factor(5.5, 1_000_000, 1_000_000)));
        assertFalse(every.matters("r", f, "r", f));
        assertThrows(IllegalArgumentException.class, () -> new FactorGate(-0.1));
    }
}
