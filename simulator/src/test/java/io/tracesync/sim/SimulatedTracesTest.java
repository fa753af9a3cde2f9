package io.tracesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import org.junit.jupiter.api.Test;

class SimulatedTracesTest {

    private final SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 11);

    @Test
    void everyPairIsSentBeforeItIsReceivedOnTheTrueClock() {
        assertTrue(cluster.pairs.size() > 100, "pairs: " + cluster.pairs.size());
        for (SendReceive p : cluster.pairs) {
            long sent = cluster.clock(p.sender()).trueAt(p.sendNs());
            long received = cluster.clock(p.receiver()).trueAt(p.recvNs());
            assertTrue(sent < received, p + ": sent at true " + sent + ", received at " + received);
        }
    }

    @Test
    void theEventsComeInTrueTimeOrderAndTheClocksReadThemBack() {
        long last = 0;
        for (TraceEvent e : cluster.events) {
            PiecewiseLinearClock clock = cluster.clock(e.getNode());
            long t = clock.trueAt(e.getTsNs());
            assertTrue(t >= last - clock.resolution(), e + " at true " + t + " after " + last);
            assertEquals(e.getTsNs(), clock.localAt(t), e.toString());
            last = Math.max(last, t);
        }
        assertThrows(IllegalArgumentException.class, () -> cluster.clock("nobody"));
    }
}
