package io.tracesync.sim;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationSink;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/** The simulator's trace events as the records a node's tracer would put in its topic (TCP PSH+ACK segments). */
public final class SimulatedTraffic {

    /** TCP PSH+ACK, the flags of every simulated segment. */
    public static final int PSH_ACK = 0x18;

    private final Scenario scenario;
    private final Map<String, ByteBuffer> addresses = new HashMap<>();

    public SimulatedTraffic(Scenario scenario) {
        this.scenario = scenario;
    }

    public TraceEvent record(SimulationSink.TraceEvent e) {
        return TraceEvent.newBuilder()
                .setNode(scenario.node(e.node()).name()).setTsNs(e.localNs())
                .setDirection(e.send() ? Direction.SEND : Direction.RECV)
                .setSaddr(address(scenario.node(e.src()).address()))
                .setDaddr(address(scenario.node(e.dst()).address()))
                .setSport(e.srcPort()).setDport(e.dstPort())
                .setSeq(e.seq()).setAckSeq(e.ack()).setFlags(PSH_ACK)
                .build();
    }

    private ByteBuffer address(String ip) {
        return addresses.computeIfAbsent(ip, a -> {
            try {
                return ByteBuffer.wrap(InetAddress.getByName(a).getAddress());
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IP address: " + a, e);
            }
        }).duplicate();
    }
}
