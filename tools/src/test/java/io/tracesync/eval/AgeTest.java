package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgeTest {

    @Test
    void anAgeIsNamedAsUsersWriteIt() {
        assertEquals(List.of("0s", "10s", "1m", "10m", "1h", "1m30s", "end"), List.of(new Age(Duration.ZERO).label(),
                new Age(Duration.ofSeconds(10)).label(), new Age(Duration.ofMinutes(1)).label(),
                new Age(Duration.ofMinutes(10)).label(), new Age(Duration.ofHours(1)).label(),
                new Age(Duration.ofSeconds(90)).label(), Age.END.label()));
    }

    @Test
    void theFactorsKnownAreThoseDrainedUpToThatLongAfter() {
        assertEquals(110, new Age(Duration.ofNanos(10)).knownUntilNs(100));
        assertEquals(Long.MAX_VALUE, Age.END.knownUntilNs(100));
        assertEquals(Long.MAX_VALUE, new Age(Duration.ofDays(365 * 1000L)).knownUntilNs(Long.MAX_VALUE - 5));
        assertThrows(IllegalArgumentException.class, () -> new Age(Duration.ofSeconds(-1)));
    }
}
