package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EmissionPacerTest {

    @Test
    void anEmissionThatTookCWaitsCOverTheShareFromItsStart() {
        EmissionPacer pacer = new EmissionPacer(0.25);
        assertTrue(pacer.due(0));
        pacer.emitted(1_000, 700_000_000L); // 700 ms at a quarter of the thread: 2.8 s apart
        assertEquals(2_800, pacer.spacingMs());
        assertFalse(pacer.due(2_000));
        assertFalse(pacer.due(3_799));
        assertTrue(pacer.due(3_800));
        pacer.emitted(4_000, 1_000_000L); // a cheap one: the next may follow at once
        assertTrue(pacer.due(4_004));
    }

    @Test
    void theWholeThreadMeansEveryEmissionMayFollowTheLast() {
        EmissionPacer pacer = new EmissionPacer(1);
        pacer.emitted(0, 900_000_000L);
        assertTrue(pacer.due(900));
        assertThrows(IllegalArgumentException.class, () -> new EmissionPacer(0));
        assertThrows(IllegalArgumentException.class, () -> new EmissionPacer(1.5));
    }
}
