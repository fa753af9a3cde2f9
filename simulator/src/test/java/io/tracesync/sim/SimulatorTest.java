package io.tracesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulation engine, through an in-memory sink. */
class SimulatorTest {

    /** Everything a run produced. */
    static final class Recording implements SimulationSink {
        final List<TraceEvent> events = new ArrayList<>();
        final List<MatchedSegment> pairs = new ArrayList<>();
        final List<long[]> breakpoints = new ArrayList<>();
        SimulationStats stats;

        @Override
        public void traceEvent(TraceEvent e) {
            events.add(e);
        }

        @Override
        public void pair(MatchedSegment p) {
            pairs.add(p);
        }

        @Override
        public void clockBreakpoint(int node, long trueNs, long localNs) {
            breakpoints.add(new long[] {node, trueNs, localNs});
        }
    }

    static Recording run(SimulationConfig c) {
        Scenario s = Scenario.build(c);
        Recording r = new Recording();
        r.stats = new Simulator(s).run(r, t -> { });
        return r;
    }

    static SimulationConfig.Builder small() {
        return SimulationConfig.builder().nodes(12).durationNs(60_000_000_000L).rateMin(5).rateMax(50);
    }

    @Test
    void progressRisesToItsTotalAndNoFurther() {
        SimulationConfig.Builder c = small();
        c.durationNs(60_500_000_000L); // not a whole number of steps
        Simulator simulator = new Simulator(Scenario.build(c.build()));
        List<Long> progress = new ArrayList<>();
        simulator.run(new Recording(), progress::add);
        assertEquals(60_500_000_000L, simulator.progressTotal());
        assertEquals(simulator.progressTotal(), progress.get(progress.size() - 1));
        for (int i = 1; i < progress.size(); i++) {
            assertTrue(progress.get(i - 1) <= progress.get(i) && progress.get(i) <= simulator.progressTotal(),
                    progress.toString());
        }
    }

    /** The TCP identity of a segment: link ends, ports, seq, ack. */
    private static String identity(SimulationSink.TraceEvent e) {
        return e.src() + ">" + e.dst() + ":" + e.srcPort() + ">" + e.dstPort() + "#" + e.seq() + "/" + e.ack();
    }

    @Test
    void sameSeedSameRunOtherSeedOtherRun() {
        SimulationConfig.Builder c = small();
        c.wander(true);
        c.churn(0.3);
        Recording a = run(c.build());
        Recording b = run(c.build());
        assertEquals(a.events, b.events);
        assertEquals(a.pairs, b.pairs);
        assertEquals(a.breakpoints.size(), b.breakpoints.size());
        for (int i = 0; i < a.breakpoints.size(); i++) {
            assertTrue(java.util.Arrays.equals(a.breakpoints.get(i), b.breakpoints.get(i)));
        }
        c.seed(2);
        Recording other = run(c.build());
        assertNotEquals(a.events, other.events);
    }

    @Test
    void eventsComeInTrueTimeOrderAndNodesOnlyTraceWhilePresent() {
        SimulationConfig.Builder c = small();
        c.churn(0.5);
        Scenario s = Scenario.build(c.build());
        Recording r = new Recording();
        r.stats = new Simulator(s).run(r, t -> { });
        long last = Long.MIN_VALUE;
        long[] lastLocal = new long[s.config().nodes()];
        java.util.Arrays.fill(lastLocal, Long.MIN_VALUE);
        for (SimulationSink.TraceEvent e : r.events) {
            assertTrue(e.trueNs() >= last);
            last = e.trueNs();
            assertTrue(s.node(e.node()).present(e.trueNs()), "node " + e.node() + " absent at " + e.trueNs());
            assertTrue(e.localNs() >= lastLocal[e.node()], "local time goes back");
            lastLocal[e.node()] = e.localNs();
        }
        assertEquals(r.stats.events(), r.events.size());
        int churned = 0;
        for (int i = 0; i < s.config().nodes(); i++) {
            churned += s.node(i).joinNs() > SimulationConfig.START_NS || s.node(i).leaveNs() < s.endNs() ? 1 : 0;
        }
        assertTrue(churned > 0 && churned < s.config().nodes(), "churned " + churned);
    }

    @Test
    void lossFractionIsTheConfiguredOne() {
        SimulationConfig.Builder c = small();
        c.loss(0.05);
        c.maxRetries(20);
        Recording r = run(c.build());
        long transmissions = r.stats.sends;
        double measured = (double) r.stats.dropped / transmissions;
        double sigma = Math.sqrt(0.05 * 0.95 / transmissions);
        assertTrue(Math.abs(measured - 0.05) < 4 * sigma, "loss " + measured + " of " + transmissions);
        // without churn a transmission goes unreceived only when lost or cut off by the end of the trace
        long unreceived = r.stats.sends - r.stats.recvs;
        assertTrue(unreceived >= r.stats.dropped && unreceived - r.stats.dropped < 200, "unreceived " + unreceived);
        // every loss is retried, unless the retry would come after the end of the trace
        assertTrue(r.stats.dropped >= r.stats.retransmissions && r.stats.dropped - r.stats.retransmissions < 200);
        assertEquals(0, r.stats.abandoned);
    }

    @Test
    void deliveriesTakeAtLeastTheMinimumDelayAndPairsAreCausal() {
        SimulationConfig.Builder c = small();
        c.loss(0.1);
        c.distribution(DelayModel.Distribution.EXPONENTIAL);
        c.interruptProbability(0.05);
        Scenario s = Scenario.build(c.build());
        Recording r = new Recording();
        r.stats = new Simulator(s).run(r, t -> { });
        Map<String, Long> minDelay = new HashMap<>();
        for (int j = 0; j < s.linkCount(); j++) {
            LinkSpec l = s.link(j);
            minDelay.put(l.client() + ">" + l.server(), l.minForwardNs());
            minDelay.put(l.server() + ">" + l.client(), l.minBackwardNs());
        }
        Map<String, Long> lastSend = new HashMap<>();
        long checked = 0;
        for (SimulationSink.TraceEvent e : r.events) {
            if (e.send()) {
                lastSend.put(identity(e), e.trueNs());
            } else {
                long min = minDelay.get(e.src() + ">" + e.dst());
                assertTrue(e.trueNs() - lastSend.get(identity(e)) >= min, "faster than the minimum: " + e);
                checked++;
            }
        }
        assertTrue(checked > 10_000, "deliveries " + checked);
        for (SimulationSink.MatchedSegment p : r.pairs) {
            assertTrue(p.trueRecvNs() - p.trueSendNs() >= minDelay.get(p.sender() + ">" + p.receiver()), p.toString());
        }
    }

    @Test
    void retransmissionsRepeatTheSegmentAndNeverMakeAFalsePair() {
        SimulationConfig.Builder c = small();
        c.loss(0.3);
        Scenario s = Scenario.build(c.build());
        Recording r = new Recording();
        r.stats = new Simulator(s).run(r, t -> { });
        Map<String, Integer> sends = new HashMap<>();
        Map<String, Long> firstSendTrue = new HashMap<>();
        Map<String, Integer> recvs = new HashMap<>();
        Map<Long, String> recvIdentityByTrue = new HashMap<>();
        for (SimulationSink.TraceEvent e : r.events) {
            String id = identity(e);
            if (e.send()) {
                sends.merge(id, 1, Integer::sum);
                firstSendTrue.putIfAbsent(id, e.trueNs());
            } else {
                recvs.merge(id, 1, Integer::sum);
                recvIdentityByTrue.put(e.trueNs() * 31 + e.node(), id);
            }
        }
        long duplicated = sends.values().stream().filter(n -> n > 1).count();
        assertTrue(duplicated > 1000, "segments sent more than once: " + duplicated);
        assertTrue(sends.values().stream().allMatch(n -> n <= 1 + s.config().maxRetries()));
        assertTrue(recvs.values().stream().allMatch(n -> n == 1), "a segment received twice");
        assertEquals(r.stats.recvs, r.pairs.size());
        for (SimulationSink.MatchedSegment p : r.pairs) {
            String id = recvIdentityByTrue.get(p.trueRecvNs() * 31 + p.receiver());
            assertEquals(firstSendTrue.get(id), p.trueSendNs(), "pair of " + id + " is not its first SEND");
        }
    }

    @Test
    void driftMeasuredFromThePairsIsTheConfiguredOne() {
        SimulationConfig.Builder c = small();
        c.nodes(2);
        c.durationNs(600_000_000_000L);
        c.rateMin(20).rateMax(20);
        c.oneWayFraction(0);
        c.maxDriftPpm(150);
        c.loss(0); // retransmitted pairs and interrupts are outliers that least squares does not forgive
        c.interruptProbability(0);
        Scenario s = Scenario.build(c.build());
        Recording r = new Recording();
        r.stats = new Simulator(s).run(r, t -> { });
        // least squares of the receiver's clock against the sender's, one direction
        int sender = r.pairs.get(0).sender();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        int n = 0;
        long x0 = r.pairs.get(0).sendNs();
        long y0 = r.pairs.get(0).recvNs();
        for (SimulationSink.MatchedSegment p : r.pairs) {
            if (p.sender() == sender) {
                double x = p.sendNs() - x0;
                double y = p.recvNs() - y0;
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
                n++;
            }
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        double expected = (1 + s.node(1 - sender).clock().driftPpm() * 1e-6)
                / (1 + s.node(sender).clock().driftPpm() * 1e-6);
        assertEquals(expected, slope, 0.05e-6, "relative rate");
    }

    @Test
    void badConfigurationsAreRefusedNamingTheParameter() {
        SimulationConfig.InvalidParameterException e = assertThrows(SimulationConfig.InvalidParameterException.class,
                () -> SimulationConfig.builder().nodes(1).build());
        assertEquals("nodes", e.parameter());
        assertEquals("nodes must be in 2..100000: 1", e.getMessage());
        e = assertThrows(SimulationConfig.InvalidParameterException.class,
                () -> SimulationConfig.builder().loss(1).build());
        assertEquals("loss", e.parameter());
        SimulationConfig c = small().seed(9).build();
        assertEquals(c.toBuilder().build().seed(), 9, "a builder from a configuration keeps its values");
        assertEquals(12, c.toBuilder().seed(10).build().nodes());
    }
}
