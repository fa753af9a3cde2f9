package io.tracesync.lttng;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Matches trace events offline as the application's matcher does (Jabbarifar 2013 §3.6.1; docs/STREAMS.md): by
 * segment key {@code seq:ack_seq:flags}, then by connection (addresses and ports, compared only where both events
 * carry them), the first send × the first receive of each flow from two different nodes giving one pair; later
 * copies (retransmissions) pair nothing, nor does a node's receive of its own send (a dead letter there). Without
 * the application's expiry: every flow is kept until the end.
 */
final class FirstSendReceive {

    private final Map<String, List<Flow>> flows = new HashMap<>();
    private final Consumer<SendReceive> pairs;

    FirstSendReceive(Consumer<SendReceive> pairs) {
        this.pairs = pairs;
    }

    private static final class Flow {
        final TraceEvent first;
        TraceEvent send;
        TraceEvent recv;
        boolean matched;

        Flow(TraceEvent first) {
            this.first = first;
        }

        TraceEvent side(Direction d) {
            return d == Direction.SEND ? send : recv;
        }

        boolean sameConnection(TraceEvent e) {
            return same(first.getSaddr(), e.getSaddr()) && same(first.getDaddr(), e.getDaddr())
                    && same(first.getSport(), e.getSport()) && same(first.getDport(), e.getDport());
        }

        private static boolean same(Object x, Object y) {
            return x == null || y == null || Objects.equals(x, y);
        }
    }

    void accept(TraceEvent e) {
        List<Flow> held = flows.computeIfAbsent(e.getSeq() + ":" + e.getAckSeq() + ":" + e.getFlags(),
                k -> new ArrayList<>(1));
        Flow flow = null;
        for (Flow f : held) {
            TraceEvent same = f.side(e.getDirection());
            if (f.sameConnection(e) && (f.matched || same == null || same.getNode().equals(e.getNode()))) {
                flow = f;
                break;
            }
        }
        if (flow == null) {
            flow = new Flow(e);
            held.add(flow);
        } else if (flow.matched || flow.side(e.getDirection()) != null
                || (e.getDirection() == Direction.SEND ? flow.recv : flow.send).getNode().equals(e.getNode())) {
            return;
        }
        if (e.getDirection() == Direction.SEND) {
            flow.send = e;
        } else {
            flow.recv = e;
        }
        if (flow.send != null && flow.recv != null) {
            flow.matched = true;
            pairs.accept(new SendReceive(flow.send.getNode(), flow.send.getTsNs(), flow.recv.getNode(),
                    flow.recv.getTsNs()));
        }
    }
}
