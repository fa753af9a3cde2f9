package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.core.link.LinkOptions;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class MidpointBaselineTest {

    @Test
    void midpointErrorIsHalfTheDelayAsymmetry() throws IOException {
        // Request a→b takes 60 ns, the answer b→a 20 ns: θ = ((1160 - 100) - (220 - 1200)) / 2 = 1020 against a
        // true offset of 1000. The exact tracesync factors err by 0 on the same exchange.
        MidpointBaseline.Comparison c = MidpointBaseline.run(Linear.csv(
                "a,100,b,1160,100,160", "b,1200,a,220,200,220"), "test", Linear.exact(300), Linear.CLOCKS);
        assertEquals(1, c.midpoint().count());
        assertEquals(20.0, c.midpoint().maxNs());
        assertEquals(1, c.tracesync().count());
        assertEquals(0.0, c.tracesync().maxNs());
    }

    @Test
    void anAnswerSentBeforeTheRequestArrivedIsNoExchange() throws IOException {
        // b sends at 1150, before the request reached it at 1160: the two messages crossed; the next pair answers b.
        MidpointBaseline.Comparison c = MidpointBaseline.run(Linear.csv(
                "a,100,b,1160,100,160", "b,1150,a,170,150,170", "a,180,b,1190,180,190"), "test", Linear.exact(300),
                Linear.CLOCKS);
        assertEquals(1, c.midpoint().count());
        // b→a 1150→170 (delay -980 = 20 - 1000), a→b 180→1190 (1010): θ(a rel. b) = (-980 - 1010) / 2 = -995.
        assertEquals(5.0, c.midpoint().maxNs());
    }

    @Test
    void composedMidpointFactorsCarryTheLatestExchangesOffset() throws IOException {
        // The same exchange as above: θ = 1020, so b's factor to the first node a is t - 1020, 20 ns off; a later
        // exchange with symmetric delays (θ = 1000) replaces it, exact from then on.
        Replay.Result r = Replay.run(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,100,b,1160,100,160", "b,1200,a,220,200,220", "a,300,b,1310,300,310", "b,1400,a,410,400,410"),
                "test", LinkOptions.DEFAULT, List.of(new MidpointPolicy()), 100).get(0);
        List<FactorRow> b = r.factors().stream().filter(f -> f.node().equals("b")).toList();
        assertEquals(List.of("a", "a"), b.stream().map(FactorRow::reference).toList());
        assertEquals(-20.0, Metrics.errorNs(b.get(0), 250, Linear.CLOCKS));
        assertEquals(0.0, Metrics.errorNs(b.get(1), 450, Linear.CLOCKS));
    }
}
