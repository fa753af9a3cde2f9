package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EmissionPacerTest {

    @Test
    void anEmissionWhoseEvaluationTookCWaitsThreeCFromItsEndAtAQuarter() {
        EmissionPacer pacer = new EmissionPacer(0.25);
        assertTrue(pacer.due(0));
        pacer.emitted(1_700, 700_000_000L); // 700 ms at a quarter of the thread: 2.1 s more after its end
        assertEquals(2_100, pacer.spacingMs());
        assertFalse(pacer.due(2_000));
        assertFalse(pacer.due(3_799));
        assertTrue(pacer.due(3_800));
        pacer.emitted(4_000, 1_000_000L); // a cheap one: the next may follow at once
        assertTrue(pacer.due(4_003));
    }

    /**
     * An emission that first spent 2.7 s applying summaries, then 0.7 s evaluating: the next waits 2.1 s from its
     * end (counted from its start, the wait would be over before it ended, and the next would evaluate everything
     * again for the few summaries arrived meanwhile).
     */
    @Test
    void applyingTheSummariesDoesNotCountAsSpacing() {
        EmissionPacer pacer = new EmissionPacer(0.25);
        pacer.emitted(10_000 + 3_400, 700_000_000L);
        assertFalse(pacer.due(13_400));
        assertFalse(pacer.due(15_499));
        assertTrue(pacer.due(15_500));
    }

    @Test
    void theWholeThreadMeansEveryEmissionMayFollowTheLast() {
        EmissionPacer pacer = new EmissionPacer(1);
        pacer.emitted(900, 900_000_000L);
        assertEquals(0, pacer.spacingMs());
        assertTrue(pacer.due(900));
        assertThrows(IllegalArgumentException.class, () -> new EmissionPacer(0));
        assertThrows(IllegalArgumentException.class, () -> new EmissionPacer(1.5));
    }
}
