package io.tracesync.streams.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesWhatUsersWrite() {
        assertEquals(Duration.ofMinutes(30), Durations.parse("30m"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofHours(2), Durations.parse("PT2H"));
        assertEquals(Duration.ZERO, Durations.parse("none"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("5 parsecs"));
    }

    @Test
    void formatsFourSignificantDigitsInTheUnitThatFits() {
        assertEquals("0 ns", Durations.format(0));
        assertEquals("0.123 ns", Durations.format(0.123));
        assertEquals("7.000 ns", Durations.format(7));
        assertEquals("999.0 ns", Durations.format(999));
        assertEquals("83.69 µs", Durations.format(83_686.18));
        assertEquals("1.000 µs", Durations.format(999.99));
        assertEquals("-1.500 ms", Durations.format(-1_500_000));
        assertEquals("12.35 s", Durations.format(12_345_678_901.0));
        assertEquals("59000 s", Durations.format(58_992_627_156_034.8));
        assertEquals("inf", Durations.format(Double.POSITIVE_INFINITY));
    }

    @Test
    void roundsAwayFromZeroSoABoundShownStillHolds() {
        assertEquals("83.68 µs", Durations.format(83_680.0));
        assertEquals("83.69 µs", Durations.format(83_680.001));
    }
}
