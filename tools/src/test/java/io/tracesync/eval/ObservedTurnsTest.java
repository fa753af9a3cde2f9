package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.sim.PiecewiseLinearClock;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ObservedTurnsTest {

    private static final long SECOND = 1_000_000_000L;

    /** a reads true time; b's frequency against it rises by κ ppb each second (a parabola, in 1-s pieces). */
    private static PiecewiseLinearClock clock(double kappaPpbPerS) {
        long[] trueNs = LongStream.rangeClosed(0, 3_600).map(s -> s * SECOND).toArray();
        long[] localNs = LongStream.of(trueNs).map(t -> t + Math.round(kappaPpbPerS * 1e-18 * t * (double) t / 2))
                .toArray();
        return new PiecewiseLinearClock(trueNs, localNs, 1);
    }

    @Test
    void theTruthsTurnIsTheFrequencysRateOfChangeOverTheLastTwoEpochs() {
        PiecewiseLinearClock a = clock(0);
        for (double kappa : new double[] {0, 3, 14}) {
            double turn = ObservedTurns.trueTurn(a, clock(kappa), 8 * 60 * SECOND, 30 * 60 * SECOND + 7);
            assertEquals(kappa, turn, 0.01 * kappa + 1e-3, "κ " + kappa);
        }
        assertTrue(Double.isNaN(ObservedTurns.trueTurn(a, clock(3), 8 * 60 * SECOND, 11 * 60 * SECOND)),
                "two whole epochs of 8 min have not ended after 11 min");
    }

    @Test
    void theFindingSetsTheLinksBesideTheTruth() {
        ObservedTurns t = new ObservedTurns(new double[] {1, 2, 9}, new double[] {1.5, 8}, false);
        assertEquals("the clocks' turn as the links show it (observed_curvature_ppb_per_s, 3 links): median 2.00, "
                + "max 9.00 ppb/s; the truth's, measured alike: median 8.00, max 8.00 (the model: 20.0 ppb/s)",
                t.finding(20));
        assertTrue(new ObservedTurns(new double[] {1}, new double[0], true).finding(20)
                .contains("the truth's is not measured across clock jumps"));
    }
}
