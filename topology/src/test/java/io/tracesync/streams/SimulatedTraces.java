package io.tracesync.streams;

import io.tracesync.core.link.SendReceive;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulatedTraffic;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import io.tracesync.sim.Simulator;
import java.util.ArrayList;
import java.util.List;

/**
 * A small simulated cluster as the topology sees it: its node names, Avro trace events in true-time order, and the
 * true pairs. Shared with the integration tests (test-jar).
 */
public final class SimulatedTraces {

    public final List<String> nodes = new ArrayList<>();
    public final List<io.tracesync.avro.TraceEvent> events = new ArrayList<>();
    public final List<SendReceive> pairs = new ArrayList<>();

    public static SimulatedTraces run(int nodes, long durationNs, long seed) {
        SimulationConfig c = new SimulationConfig();
        c.nodes = nodes;
        c.durationNs = durationNs;
        c.seed = seed;
        return run(c);
    }

    public static SimulatedTraces run(SimulationConfig c) {
        Scenario scenario = Scenario.build(c);
        SimulatedTraffic traffic = new SimulatedTraffic(scenario);
        SimulatedTraces t = new SimulatedTraces();
        for (int i = 0; i < scenario.nodeCount(); i++) {
            t.nodes.add(scenario.node(i).name());
        }
        new Simulator(scenario).run(new SimulationSink() {
            @Override
            public void traceEvent(SimulationSink.TraceEvent e) {
                t.events.add(traffic.record(e));
            }

            @Override
            public void pair(MatchedSegment p) {
                t.pairs.add(new SendReceive(scenario.node(p.sender()).name(), p.sendNs(),
                        scenario.node(p.receiver()).name(), p.recvNs()));
            }

            @Override
            public void clockBreakpoint(int node, long trueNs, long localNs) {
            }
        }, ns -> { });
        return t;
    }
}
