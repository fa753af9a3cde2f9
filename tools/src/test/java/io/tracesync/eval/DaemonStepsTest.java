package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth.FrequencyStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The κ a link's relation needs: the largest sum of its two ends' frequency steps within any τ. */
class DaemonStepsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void eachLinkTakesTheLargestSumOfBothEndsWithinTau() {
        List<FrequencyStep> steps = List.of(new FrequencyStep("a", 0, 0.3), new FrequencyStep("b", 5 * SECOND, -0.4),
                new FrequencyStep("a", 10 * SECOND, 0.2), new FrequencyStep("a", 64 * SECOND, -0.5),
                new FrequencyStep("c", 100 * SECOND, 0.1));
        DaemonSteps d = DaemonSteps.of(steps, List.of(new LinkKey("a", "b"), new LinkKey("a", "c"),
                new LinkKey("b", "c")), 64 * SECOND);
        // a~b: 0.4 + 0.2 + 0.5 within [5 s, 69 s), more than the 0.9 of [0, 64 s), which leaves out the step at 64 s
        // a~c: 0.2 + 0.5 within (0, 64 s]; b~c: one step each, 95 s apart
        assertArrayEquals(new double[] {0.4, 0.7, 1.1}, d.perLinkPpm(), 1e-12);
        assertTrue(d.finding(500).contains("median 0.700, max 1.100 ppm (link.step.ppb allows 0.500)"),
                d.finding(500));
    }
}
