package io.tracesync.sim;

import io.tracesync.core.link.SendReceive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small simulated cluster in memory, as the application sees it: its node names, Avro trace events in true-time
 * order, the true pairs, and every node's exact clock (the ground truth a {@link GroundTruth} reads back from a
 * simulation directory).
 */
public final class SimulatedTraces {

    public final List<String> nodes = new ArrayList<>();
    public final List<io.tracesync.avro.TraceEvent> events = new ArrayList<>();
    public final List<SendReceive> pairs = new ArrayList<>();
    private final Map<String, PiecewiseLinearClock> clocks = new LinkedHashMap<>();

    public static SimulatedTraces run(int nodes, long durationNs, long seed) {
        return run(SimulationConfig.builder().nodes(nodes).durationNs(durationNs).seed(seed).build());
    }

    public static SimulatedTraces run(SimulationConfig c) {
        Scenario scenario = Scenario.build(c);
        SimulatedTraffic traffic = new SimulatedTraffic(scenario);
        SimulatedTraces t = new SimulatedTraces();
        for (int i = 0; i < scenario.nodeCount(); i++) {
            t.nodes.add(scenario.node(i).name());
        }
        long[][] trueNs = new long[scenario.nodeCount()][4];
        long[][] localNs = new long[scenario.nodeCount()][4];
        int[] breakpoints = new int[scenario.nodeCount()];
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
            public void clockBreakpoint(int node, long t, long local) {
                int k = breakpoints[node]++;
                if (k == trueNs[node].length) {
                    trueNs[node] = Arrays.copyOf(trueNs[node], 2 * k);
                    localNs[node] = Arrays.copyOf(localNs[node], 2 * k);
                }
                trueNs[node][k] = t;
                localNs[node][k] = local;
            }
        }, ns -> { });
        for (int i = 0; i < scenario.nodeCount(); i++) {
            t.clocks.put(t.nodes.get(i), new PiecewiseLinearClock(Arrays.copyOf(trueNs[i], breakpoints[i]),
                    Arrays.copyOf(localNs[i], breakpoints[i]), scenario.node(i).clock().resolutionNs()));
        }
        return t;
    }

    /** The exact clock of a node. */
    public PiecewiseLinearClock clock(String node) {
        PiecewiseLinearClock c = clocks.get(node);
        if (c == null) {
            throw new IllegalArgumentException("no node " + node + " in this cluster");
        }
        return c;
    }
}
