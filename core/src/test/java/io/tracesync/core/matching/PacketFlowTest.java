package io.tracesync.core.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.core.link.SendReceive;
import io.tracesync.core.matching.PacketFlow.Outcome;
import io.tracesync.core.matching.PacketFlow.Sighting;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class PacketFlowTest {

    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};

    /** One sighting of a segment: its side, node, time and connection (addresses possibly unknown). */
    record Seen(boolean send, String node, long ts, boolean knownAddresses) {
    }

    @Provide
    Arbitrary<List<Seen>> sightings() {
        return Combinators.combine(Arbitraries.of(true, false), Arbitraries.of("a", "b", "c"),
                Arbitraries.longs().between(0, 50), Arbitraries.of(true, false)).as(Seen::new).list().ofMaxSize(12);
    }

    /**
     * Against the rule stated plainly, on one connection: the first send and the first receive (in arrival order)
     * form the message, if on two nodes; nothing else ever pairs. Unknown addresses match known ones.
     */
    @Property(tries = 2000)
    void theFirstSendAndTheFirstReceiveOfTwoNodesPairOnce(@ForAll("sightings") List<Seen> seen) {
        List<PacketFlow> flows = new ArrayList<>();
        List<SendReceive> messages = new ArrayList<>();
        for (Seen s : seen) {
            byte[] src = s.knownAddresses() ? A : null;
            byte[] dst = s.knownAddresses() ? B : null;
            Sighting sighting = new Sighting(s.node(), s.ts());
            PacketFlow f = PacketFlow.find(flows, s.send(), s.node(), src, dst, 1, 2);
            if (f == null) {
                flows.add(PacketFlow.first(s.send(), sighting, src, dst, 1, 2));
            } else if (f.offer(s.send(), sighting) == Outcome.PAIRED) {
                messages.add(f.message());
            }
        }
        // the plain rule over the first flow: its first sighting, then the first of the other side on another node
        List<SendReceive> expected = new ArrayList<>();
        if (!seen.isEmpty()) {
            Seen first = seen.get(0);
            Seen other = seen.stream().filter(s -> s.send() != first.send() && !s.node().equals(first.node()))
                    .findFirst().orElse(null);
            if (other != null) {
                Seen send = first.send() ? first : other;
                Seen recv = first.send() ? other : first;
                expected.add(new SendReceive(send.node(), send.ts(), recv.node(), recv.ts()));
            }
        }
        assertEquals(expected, messages.isEmpty() ? messages : messages.subList(0, 1), seen.toString());
        assertEquals(messages.stream().distinct().count(), messages.size(), "a message is never paired twice");
    }

    @Test
    void copiesDuplicatesAndSelfSendsPairNothing() {
        PacketFlow f = PacketFlow.first(true, new Sighting("a", 5), A, B, 1, 2);
        assertEquals(Outcome.DUPLICATE, f.offer(true, new Sighting("a", 5)));
        assertEquals(Outcome.COPY, f.offer(true, new Sighting("a", 9)), "a retransmission");
        assertEquals(Outcome.SAME_NODE, f.offer(false, new Sighting("a", 7)));
        assertThrows(IllegalStateException.class, f::message);
        assertEquals(Outcome.PAIRED, f.offer(false, new Sighting("b", 8)));
        assertEquals(new SendReceive("a", 5, "b", 8), f.message());
        assertEquals(Outcome.COPY, f.offer(false, new Sighting("c", 9)), "a matched flow takes nothing more");
    }

    @Test
    void connectionsAreComparedWhereBothSidesKnowThem() {
        List<PacketFlow> flows = List.of(PacketFlow.first(true, new Sighting("a", 1), A, B, 1,
                PacketFlow.UNKNOWN_PORT));
        assertSame(flows.get(0), PacketFlow.find(flows, false, "b", null, B, 1, 9), "unknowns match anything");
        assertNull(PacketFlow.find(flows, false, "b", B, A, 1, 2), "other addresses: another flow");
        assertNull(PacketFlow.find(flows, false, "b", A, B, 3, 2), "another port: another flow");
        assertNotNull(PacketFlow.find(flows, true, "a", A, B, 1, 2), "the same side from the same node: a copy");
        assertNull(PacketFlow.find(flows, true, "c", A, B, 1, 2), "the same side from another node: a new flow");
    }
}
