package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoliciesReplayTest {

    /** a(t) = t, b(t) = t + 1000, every message 10 ns, through four policies in one replay. */
    private static List<Replay.Result> replay() throws IOException {
        return Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,0,b,1010,0,10", "b,1020,a,30,20,30", "a,40,b,1050,40,50", "b,1060,a,70,60,70"), "test",
                LinkOptions.NO_HORIZON, List.of(new NetworkPolicy(NetworkOptions.DEFAULT),
                        new NetworkPolicy(NetworkOptions.DEFAULT.withPinnedReference("b")), new TraceCompassPolicy(),
                        new DudaRegressionPolicy()), 25);
    }

    @Test
    void everyPolicySeesTheSameTicksAndLinks() throws IOException {
        List<Replay.Result> results = replay();
        assertEquals(4, results.size());
        assertEquals(Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,0,b,1010,0,10", "b,1020,a,30,20,30", "a,40,b,1050,40,50", "b,1060,a,70,60,70"), "test",
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT, 25), results.get(0), "tracesync alone, the same");
        for (Replay.Result r : results) {
            assertEquals(70, r.endNs());
            assertEquals(results.get(0).links(), r.links());
            assertTrue(r.factors().stream().allMatch(f -> List.of(35L, 60L, 70L).contains(f.trueNs())),
                    r.factors()::toString);
        }
    }

    @Test
    void pinnedReferenceIsEveryonesReferenceAndStaysInsideItsBounds() throws IOException {
        Replay.Result pinned = replay().get(1);
        // Before the link is ACCURATE each node is its own reference; from then on a's reference is b.
        assertTrue(pinned.factors().stream().filter(f -> f.trueNs() > 35).allMatch(f -> f.reference().equals("b")),
                pinned.factors()::toString);
        ErrorStats e = Metrics.factorErrors(pinned, Linear.CLOCKS);
        assertTrue(e.count() > 0 && e.inside() == e.bounded() && e.bounded() == e.count(), e::toString);
    }

    @Test
    void traceCompassRootsAtTheFirstNameWithTheHullEstimate() throws IOException {
        // Symmetric 10 ns delays: the hulls' corridor is y = x + 990 … x + 1010, so |error| ≤ 10 ns.
        Replay.Result tc = replay().get(2);
        FactorRow last = tc.factors().get(tc.factors().size() - 1);
        assertEquals("b", last.node());
        assertEquals("a", last.reference());
        ErrorStats e = Metrics.factorErrors(tc, Linear.CLOCKS);
        assertTrue(e.count() > 0 && e.maxNs() <= 10, e::toString);
    }
}
