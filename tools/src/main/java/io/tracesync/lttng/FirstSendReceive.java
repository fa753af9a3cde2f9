package io.tracesync.lttng;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.matching.PacketFlow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Matches trace events offline by the application's own rule ({@link PacketFlow}, docs/STREAMS.md): by segment key
 * {@code seq:ack_seq:flags}, then by connection, the first send × the first receive of each flow from two different
 * nodes giving one message; copies pair nothing, nor does a node's receive of its own send (a dead letter in the
 * stream). Without the application's expiry: every flow is kept until the end.
 */
final class FirstSendReceive {

    private final Map<String, List<PacketFlow>> flows = new HashMap<>();
    private final Consumer<SendReceive> messages;

    FirstSendReceive(Consumer<SendReceive> messages) {
        this.messages = messages;
    }

    void accept(TraceEvent e) {
        List<PacketFlow> held = flows.computeIfAbsent(e.getSeq() + ":" + e.getAckSeq() + ":" + e.getFlags(),
                k -> new ArrayList<>(1));
        boolean isSend = e.getDirection() == Direction.SEND;
        byte[] saddr = PacketFlow.bytes(e.getSaddr());
        byte[] daddr = PacketFlow.bytes(e.getDaddr());
        int sport = PacketFlow.port(e.getSport());
        int dport = PacketFlow.port(e.getDport());
        PacketFlow.Sighting seen = new PacketFlow.Sighting(e.getNode(), e.getTsNs());
        PacketFlow flow = PacketFlow.find(held, isSend, e.getNode(), saddr, daddr, sport, dport);
        if (flow == null) {
            held.add(PacketFlow.first(isSend, seen, saddr, daddr, sport, dport));
        } else if (flow.offer(isSend, seen) == PacketFlow.Outcome.PAIRED) {
            messages.accept(flow.message());
        }
    }
}
