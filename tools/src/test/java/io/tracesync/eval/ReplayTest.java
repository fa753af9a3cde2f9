package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplayTest {

    /** a(t) = t, b(t) = t + 1000, every message 10 ns: received at true 10, 30, 50, 70. */
    private static Replay.Result replay(long intervalNs) throws IOException {
        return Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,0,b,1010,0,10", "b,1020,a,30,20,30", "a,40,b,1050,40,50", "b,1060,a,70,60,70"), "test",
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT, intervalNs);
    }

    @Test
    void drainsEveryIntervalOfTrueTimeAndAfterTheLastPair() throws IOException {
        // First tick one interval after the first receipt (35); the pair at 50 drains it, skips to 60; the pair
        // at 70 drains 60; the end drains at 70.
        Replay.Result r = replay(25);
        assertEquals(70, r.endNs());
        assertTrue(r.factors().stream().allMatch(f -> Set.of(35L, 60L, 70L).contains(f.trueNs())), r.factors()::toString);
        assertEquals(10, r.links().get(new LinkKey("a", "b")).firstPairTrueNs());
        FactorRow last = r.factors().get(r.factors().size() - 1);
        assertTrue(last.bounded(), last::toString);
        double e = Metrics.errorNs(last, 70, Linear.CLOCKS);
        assertTrue(last.contains(Linear.CLOCKS.localAt(last.node(), 70), e), e + " outside " + last);
    }

    @Test
    void writesTheFactorsCsv() throws IOException {
        StringWriter out = new StringWriter();
        replay(25).writeFactors(out);
        String[] lines = out.toString().split("\n");
        assertEquals("true_ns,node,reference,slope,offset,up_ns,down_ns", lines[0]);
        assertTrue(lines[lines.length - 1].matches("70,b,a,[0-9.]+,-?[0-9.]+,[0-9.]+,[0-9.]+"), lines[lines.length - 1]);
    }

    /** b's clock jumps 5,000 ns forward at true 45: its send at true 60 no longer fits any line. */
    @Test
    void recordsWhenALinkFails() throws IOException {
        Replay.Result r = Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,0,b,1010,0,10", "b,1020,a,30,20,30", "a,40,b,1050,40,50", "b,6060,a,70,60,70"), "test",
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT, 25);
        LinkTiming link = r.links().get(new LinkKey("a", "b"));
        assertEquals(List.of(70L), link.failureTrueNs());
        assertEquals(OptionalLong.of(70), link.firstFailureFrom(45));
        assertEquals(OptionalLong.empty(), link.firstFailureFrom(71));
        assertTrue(replay(25).links().get(new LinkKey("a", "b")).failureTrueNs().isEmpty());
    }

    @Test
    void rejectsPairsOutOfTrueOrder() {
        assertThrows(IllegalArgumentException.class, () -> Replay.run(Linear.csv("a,0,b,1010,0,10",
                "b,1000,a,5,0,5"), "test", LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT, 25));
    }
}
