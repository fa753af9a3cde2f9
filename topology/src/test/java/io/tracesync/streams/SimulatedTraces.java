package io.tracesync.streams;

import io.tracesync.avro.Direction;
import io.tracesync.core.link.MatchedPair;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import io.tracesync.sim.Simulator;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** A small simulated cluster as the topology sees it: Avro trace events in true-time order, and the true pairs. */
final class SimulatedTraces {

    /** TCP PSH+ACK, the simulator's flags. */
    static final int PSH_ACK = 0x18;

    final List<io.tracesync.avro.TraceEvent> events = new ArrayList<>();
    final List<MatchedPair> pairs = new ArrayList<>();

    static SimulatedTraces run(int nodes, long durationNs, long seed) {
        SimulationConfig c = new SimulationConfig();
        c.nodes = nodes;
        c.durationNs = durationNs;
        c.seed = seed;
        Scenario scenario = Scenario.build(c);
        SimulatedTraces t = new SimulatedTraces();
        new Simulator(scenario).run(new SimulationSink() {
            @Override
            public void traceEvent(SimulationSink.TraceEvent e) {
                t.events.add(io.tracesync.avro.TraceEvent.newBuilder()
                        .setNode(scenario.node(e.node()).name())
                        .setTsNs(e.localNs())
                        .setDirection(e.send() ? Direction.SEND : Direction.RECV)
                        .setSaddr(address(scenario.node(e.src()).address()))
                        .setDaddr(address(scenario.node(e.dst()).address()))
                        .setSport(e.srcPort()).setDport(e.dstPort())
                        .setSeq(e.seq()).setAckSeq(e.ack()).setFlags(PSH_ACK)
                        .build());
            }

            @Override
            public void pair(MatchedSegment p) {
                t.pairs.add(new MatchedPair(scenario.node(p.sender()).name(), p.sendNs(),
                        scenario.node(p.receiver()).name(), p.recvNs()));
            }

            @Override
            public void clockBreakpoint(int node, long trueNs, long localNs) {
            }
        }, ns -> { });
        return t;
    }

    private static ByteBuffer address(String ip) {
        try {
            return ByteBuffer.wrap(InetAddress.getByName(ip).getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
