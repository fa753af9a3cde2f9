package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkKey;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MetricsTest {

    @Test
    void factorErrorsAreSampledWhileEachFactorIsInForce() {
        // a's factor: offset 990 from t=10 (error -10: the truth is 10 ns above the map, within up 20 ns; a
        // down bound of 5 ns only), offset 1020 from t=20 (error +20, bounds ±10 ns); interval 5, end 30: samples
        // at 10, 15 and 20, 25; b is the reference.
        Replay.Result r = new Replay.Result(List.of(Linear.row(10, "a", "b", 990, 20_000, 5_000),
                Linear.row(10, "b", "b", 0, 0, 0), Linear.row(20, "a", "b", 1020, 10_000, 10_000)),
                Map.of(), 5, 30);
        ErrorStats s = Metrics.factorErrors(r, Linear.CLOCKS);
        assertEquals(4, s.count());
        assertEquals(4, s.bounded());
        assertEquals(2, s.inside());
        assertEquals(50.0, s.insidePercent());
        assertEquals(10.0, s.medianNs());
        assertEquals(20.0, s.p99Ns());
        assertEquals(20.0, s.maxNs());
    }

    @Test
    void unboundedFactorsCountErrorsButNoBounds() {
        Replay.Result r = new Replay.Result(List.of(Linear.row(0, "a", "b", 1003, Linear.UNBOUNDED, 0)),
                Map.of(), 10, 0);
        ErrorStats s = Metrics.factorErrors(r, Linear.CLOCKS);
        assertEquals(1, s.count());
        assertEquals(3.0, s.maxNs());
        assertEquals(0, s.bounded());
        assertEquals(0, s.inside());
    }

    @Test
    void correctedMessagesAreCheckedForInversionsAndTheMinimumDelay() throws IOException {
        // a→b delay 5 (fine), b→a corrected delay 198 + 1000 - 1200 = -2 (inversion, too fast),
        // a→b delay 1302 - 1300 = 2 < 3 (too fast), and c has no factor: not corrected.
        var checks = Metrics.linkChecks(Linear.csv("sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "a,100,b,1105,100,105", "b,1200,a,198,200,198", "a,300,b,1302,300,302", "a,400,c,410,400,410"),
                "test", Linear.exact(500), Linear.CLOCKS);
        assertEquals(Map.of(new LinkKey("a", "b"), new LinkChecks(3, 1, 0, 2, 2, 198, 198)), checks);
    }

    @Test
    void inversionsReceivedInADetectionWindowAreCountedApart() throws IOException {
        String[] pairs = {"sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns",
                "b,1200,a,198,200,198", "b,1300,a,297,300,297"};
        var checks = Metrics.linkChecks(Linear.csv(pairs), "test", Linear.exact(500), Linear.CLOCKS,
                t -> t < 250);
        assertEquals(new LinkChecks(2, 2, 1, 2, 3, 198, 297), checks.get(new LinkKey("a", "b")));
    }

    @Test
    void afterTheFactBothEndsConvertWithTheFactorsKnownThatLongAfterTheReceipt() throws IOException {
        // a's factor in force at the receipt (true 205) is 10 ns low: b→a sent at b's 1200, received at a's 205,
        // corrected to 1195, an inversion; the factor drained at true 300 (exact, superseding it) knows better.
        Replay.Result r = new Replay.Result(List.of(Linear.row(0, "a", "b", 990, 20_000, 20_000),
                Linear.row(0, "b", "b", 0, 0, 0), Linear.row(300, "a", "b", 1000, 20_000, 20_000)), Map.of(), 10,
                400);
        String[] pairs = {"sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns", "b,1200,a,205,200,205"};
        LinkKey ab = new LinkKey("a", "b");
        assertEquals(1, Metrics.linkChecks(Linear.csv(pairs), "test", r, Linear.CLOCKS).get(ab).inversions());
        HistoryGate all = new HistoryGate(0);
        assertEquals(1, Metrics.linkChecksAfterTheFact(Linear.csv(pairs), "test", r, Linear.CLOCKS,
                new Age(Duration.ZERO), all, t -> false).get(ab).inversions(), "at age 0 as live");
        assertEquals(new LinkChecks(1, 0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE), Metrics.linkChecksAfterTheFact(
                Linear.csv(pairs), "test", r, Linear.CLOCKS, new Age(Duration.ofNanos(95)), all, t -> false)
                .get(ab), "95 ns after the receipt: the delay 5 ns");
    }

    @Test
    void timeToFirstAccurateIsMeasuredFromTheFirstPair() {
        assertEquals(OptionalLong.of(40), new LinkTiming(60, OptionalLong.of(100), List.of()).timeToAccurateNs());
        assertEquals(OptionalLong.empty(), new LinkTiming(60, OptionalLong.empty(), List.of()).timeToAccurateNs());
    }
}
