package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.numeric.ClockMap;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DudaRegressionTest {

    @Test
    void leastSquaresLineOfAHandComputedCloud() {
        // mean (1.5, 1), Sxy = 1.5 + 0 + 0 + 1.5 = 3, Sxx = 2.25 + 0.25 + 0.25 + 2.25 = 5: y = 0.6 x + 0.1.
        LeastSquares ls = new LeastSquares();
        ls.add(0, 0);
        assertFalse(ls.defined());
        ls.add(1, 1);
        ls.add(2, 1);
        ls.add(3, 2);
        assertTrue(ls.defined());
        assertEquals(0.6, ls.slope(), 1e-15);
        assertEquals(0.1, ls.intercept(), 1e-15);
    }

    @Test
    void linkEstimateIsMidwayBetweenTheTwoDirectionsLines() {
        // b = a + 1000; a→b takes 10 ns: y = x + 1010; b→a takes 30 ns: y = x + 970; midway y = x + 990, off by
        // half the asymmetry.
        LinkRegression r = new LinkRegression();
        r.add(true, 0, 1010);
        r.add(true, 100, 1110);
        assertNull(r.estimate(), "one direction only");
        r.add(false, 80, 1050);
        r.add(false, 180, 1150);
        ClockMap m = r.estimate();
        assertEquals(1.0, m.slope().hi(), 0);
        assertEquals(5990, m.applyRounded(5000));
    }

    @Test
    void replayedRegressionMeasuredAgainstTheTruth() throws IOException {
        // The same messages in true receive order (a(t) = t, b(t) = t + 1000): one drain at the end, b's factor to
        // a (the first name) is x − 990, so its true error is (T + 1000 − 990) − T = 10 ns.
        Replay.Result r = Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,0,b,1010,0,10", "b,1050,a,80,50,80", "a,100,b,1110,100,110", "b,1150,a,180,150,180"), "test",
                LinkOptions.NO_HORIZON, List.of(new DudaRegressionPolicy()), 1000).get(0);
        FactorRow b = r.factors().stream().filter(f -> f.node().equals("b")).findFirst().orElseThrow();
        assertEquals("a", b.reference());
        assertEquals(180, b.trueNs());
        assertFalse(b.bounded());
        ErrorStats e = Metrics.factorErrors(r, Linear.CLOCKS);
        assertEquals(1, e.count());
        assertEquals(10.0, e.medianNs(), 1e-6);
        assertEquals(0, e.bounded());
    }
}
