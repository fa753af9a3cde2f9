package io.tracesync.lttng;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstSendReceiveTest {

    private static TraceEvent event(String node, long ts, Direction d, long seq, Integer sport) {
        return TraceEvent.newBuilder().setNode(node).setTsNs(ts).setDirection(d).setSeq(seq).setAckSeq(7)
                .setFlags(0x18).setSaddr(sport == null ? null : ByteBuffer.wrap(new byte[] {10, 0, 0, 1}))
                .setDaddr(null).setSport(sport).setDport(null).build();
    }

    private static List<SendReceive> match(TraceEvent... events) {
        List<SendReceive> out = new ArrayList<>();
        FirstSendReceive m = new FirstSendReceive(out::add);
        for (TraceEvent e : events) {
            m.accept(e);
        }
        return out;
    }

    @Test
    void firstSendTimesFirstReceive() {
        assertEquals(List.of(new SendReceive("a", 10, "b", 20)), match(event("b", 20, Direction.RECV, 1, null),
                event("a", 10, Direction.SEND, 1, null), event("a", 15, Direction.SEND, 1, null),
                event("b", 25, Direction.RECV, 1, null)));
    }

    @Test
    void connectionsApartWhereBothCarryThem() {
        assertEquals(List.of(new SendReceive("a", 10, "b", 30), new SendReceive("c", 20, "d", 40)),
                match(event("a", 10, Direction.SEND, 1, 1000), event("c", 20, Direction.SEND, 1, 2000),
                        event("b", 30, Direction.RECV, 1, 1000), event("d", 40, Direction.RECV, 1, 2000)));
    }

    @Test
    void aNodesOwnReceiveIsNoPair() {
        assertEquals(List.of(new SendReceive("a", 10, "b", 30)), match(event("a", 10, Direction.SEND, 1, null),
                event("a", 20, Direction.RECV, 1, null), event("b", 30, Direction.RECV, 1, null)));
    }
}
