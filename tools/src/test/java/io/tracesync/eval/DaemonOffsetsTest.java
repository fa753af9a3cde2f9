package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.sim.GroundTruth.Slew;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The excursion that covers a run's slews by statement: 2.002 times the largest offset any node slewed. */
class DaemonOffsetsTest {

    @Test
    void eachNodeTakesItsLargestOffsetEitherWay() {
        DaemonOffsets d = DaemonOffsets.of(List.of(new Slew("a", 0, 10_000), new Slew("b", 5, -40_000),
                new Slew("a", 10, -25_000), new Slew("c", 20, 5_000)));
        assertArrayEquals(new double[] {5_000, 25_000, 40_000}, d.perNodeNs(), 0);
        assertTrue(d.finding(20_000).contains("median 25.0, max 40.0 µs; an excursion of 2.002 × the largest, 80.1 µs"),
                d.finding(20_000));
        assertTrue(d.finding(20_000).endsWith("(link.excursion allows 20.0)"), d.finding(20_000));
    }

    @Test
    void aSlewIsBeyondAnExcursionThatDoesNotCoverTwiceItsOffset() {
        List<Slew> slews = List.of(new Slew("a", 0, 10_000), new Slew("b", 5, -40_000), new Slew("c", 9, 9_990));
        assertEquals(List.of(slews.get(0), slews.get(1)), DaemonOffsets.beyond(slews, 20_000));
        assertEquals(List.of(slews.get(1)), DaemonOffsets.beyond(slews, 20_020));
        assertEquals(slews, DaemonOffsets.beyond(slews, 0));
    }
}
