package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistorySweepTest {

    /** A history that keeps every row. */
    private static final HistoryGate KEEP_ALL = new HistoryGate(0);

    /** a's factor to b (b(t) = t + 1000) drained at {@code trueNs}, anchored 2 ns before it, bounds ±5 ns. */
    private static FactorRow drained(long trueNs) {
        return new FactorRow(trueNs, "a", "b", new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(1000)),
                5_000, 5_000, trueNs - 2, 1e-3, 1e-3));
    }

    private static final List<FactorRow> ROWS = List.of(drained(10), new FactorRow(10, "b", "b", ClockMap.IDENTITY,
            0, 0), drained(20), drained(30));

    @Test
    void eachTimeIsConvertedWithTheFactorsDrainedUpToItsAge() {
        HistoricConversion live = new HistorySweep(ROWS, new Age(Duration.ZERO), 100, KEEP_ALL)
                .convert("a", 15, 15);
        assertEquals(HistoricConversion.Basis.EXTRAPOLATED, live.basis());
        assertEquals(1, live.version().number(), "numbered in drain order");
        HistorySweep tenLater = new HistorySweep(ROWS, new Age(Duration.ofNanos(10)), 100, KEEP_ALL);
        HistoricConversion between = tenLater.convert("a", 15, 15);
        assertEquals(HistoricConversion.Basis.INTERPOLATED, between.basis());
        assertEquals(List.of(1L, 3L), List.of(between.version().number(), between.next().number()));
        HistoricConversion later = tenLater.convert("a", 25, 25);
        assertEquals(List.of(3L, 4L), List.of(later.version().number(), later.next().number()));
        HistoricConversion early = new HistorySweep(ROWS, new Age(Duration.ofNanos(3)), 100, KEEP_ALL)
                .convert("a", 26, 26);
        assertEquals(HistoricConversion.Basis.EXTRAPOLATED, early.basis(), "the row drained at 30 is not known");
        assertEquals(3, early.version().number());
        HistoricConversion end = new HistorySweep(ROWS, Age.END, 100, KEEP_ALL).convert("a", 15, 15);
        assertEquals(List.of(1L, 3L), List.of(end.version().number(), end.next().number()));
        HistoricConversion newest = new HistorySweep(ROWS, Age.END, 1, KEEP_ALL).convert("a", 15, 15);
        assertEquals(HistoricConversion.Basis.EXTRAPOLATED, newest.basis());
        assertEquals(4, newest.version().number(), "the newest alone, carried back");
    }

    @Test
    void aSweepGoesForwardPerNode() {
        HistorySweep sweep = new HistorySweep(ROWS, Age.END, 100, KEEP_ALL);
        assertNull(sweep.convert("c", 15, 15), "no factor of c");
        sweep.convert("a", 15, 15);
        sweep.convert("b", 12, 12);
        assertThrows(IllegalArgumentException.class, () -> sweep.convert("a", 14, 14));
    }
}
