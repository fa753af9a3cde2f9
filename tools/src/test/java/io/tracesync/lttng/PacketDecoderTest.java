package io.tracesync.lttng;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacketDecoderTest {

    private static List<TraceEvent> decode(String fixture, String node) throws Exception {
        PacketDecoder d = new PacketDecoder(node, 1_000_000_000L);
        List<TraceEvent> out = new ArrayList<>();
        for (String line : PrettyLineTest.fixture(fixture)) {
            TraceEvent e = d.decode(PrettyLine.parse(line));
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void socketEventsTakeTheirConnectionFromInetConnect() throws Exception {
        List<TraceEvent> events = decode("scp_src-socket-events.txt", "VM1");
        assertEquals(4, events.size());
        TraceEvent syn = events.get(0); // sent before inet_connect: no addresses yet
        assertEquals(Direction.SEND, syn.getDirection());
        assertEquals(10533523040321L, syn.getTsNs());
        assertEquals(0xA50EB20CL, syn.getSeq());
        assertEquals(0, syn.getAckSeq());
        assertEquals(0x02, syn.getFlags());
        assertNull(syn.getSaddr());
        assertNull(syn.getSport());
        TraceEvent synAck = events.get(1);
        assertEquals(Direction.RECV, synAck.getDirection());
        assertEquals(0x12, synAck.getFlags());
        assertArrayEquals(new byte[] {10, 0, 10, 21}, bytes(synAck.getSaddr()));
        assertArrayEquals(new byte[] {10, 0, 10, 4}, bytes(synAck.getDaddr()));
        assertEquals(22, synAck.getSport());
        assertEquals(48361, synAck.getDport());
        TraceEvent ack = events.get(2);
        assertEquals(Direction.SEND, ack.getDirection());
        assertEquals(0x10, ack.getFlags());
        assertArrayEquals(new byte[] {10, 0, 10, 4}, bytes(ack.getSaddr()));
        assertEquals(48361, ack.getSport());
        assertEquals(22, ack.getDport());
        assertEquals(0x18, events.get(3).getFlags());
    }

    @Test
    void theAcceptingSideGetsTheMirroredConnection() throws Exception {
        List<TraceEvent> events = decode("scp_dest-socket-events.txt", "VM3");
        assertEquals(6, events.size());
        assertNull(events.get(1).getSaddr()); // the SYN|ACK of the listening socket (sk 0x0)
        TraceEvent data = events.get(3); // after inet_accept on the clone
        assertEquals(Direction.SEND, data.getDirection());
        assertArrayEquals(new byte[] {10, 0, 10, 21}, bytes(data.getSaddr()));
        assertEquals(22, data.getSport());
        assertEquals(48361, data.getDport());
        assertEquals(22, events.get(4).getDport());
    }

    @Test
    void addonFlagWordsOfTheScpTrace() throws Exception {
        assertEquals(0x02, PacketDecoder.addonFlags(0x400A));
        assertEquals(0x12, PacketDecoder.addonFlags(0x480A));
        assertEquals(0x10, PacketDecoder.addonFlags(0x808));
        assertEquals(0x18, PacketDecoder.addonFlags(0x1808));
        assertEquals(0x11, PacketDecoder.addonFlags(0x8808));
        assertThrows(PrettyLine.BadLine.class, () -> PacketDecoder.addonFlags(0x18));
        assertThrows(PrettyLine.BadLine.class, () -> PacketDecoder.addonFlags(0x10008));
    }

    /** device-events.txt: synthetic values in babeltrace2's real output form for lttng-modules' net_dev_template. */
    @Test
    void deviceEventsCarryTheirHeaders() throws Exception {
        List<TraceEvent> events = decode("device-events.txt", "node-a");
        assertEquals(2, events.size()); // the UDP packet is no packet event
        TraceEvent syn = events.get(0);
        assertEquals(Direction.SEND, syn.getDirection());
        assertEquals(1000000123L, syn.getTsNs());
        assertEquals(2769203724L, syn.getSeq());
        assertEquals(0x02, syn.getFlags());
        assertArrayEquals(new byte[] {10, 0, 10, 4}, bytes(syn.getSaddr()));
        assertArrayEquals(new byte[] {10, 0, 10, 21}, bytes(syn.getDaddr()));
        assertEquals(48361, syn.getSport());
        assertEquals(22, syn.getDport());
        TraceEvent synAck = events.get(1);
        assertEquals(Direction.RECV, synAck.getDirection());
        assertEquals(0x12, synAck.getFlags());
        assertEquals(2769203725L, synAck.getAckSeq());
        assertArrayEquals(InetAddress.getByName("fd00::15").getAddress(), bytes(synAck.getSaddr()));
        assertArrayEquals(InetAddress.getByName("fd00::4").getAddress(), bytes(synAck.getDaddr()));
        assertEquals(22, synAck.getSport());
    }

    @Test
    void packetsThatNeverLeaveTheNodeAreNoPacketEvents() throws Exception {
        PacketDecoder d = new PacketDecoder("n", 1_000_000_000L);
        assertNull(d.decode(PrettyLine.parse("[00000000000000000040] n inet_connect: { cpu_id = 0 }, { sk = 0x1, "
                + "saddr = 0x7F000001, daddr = 0x7F000001, sport = 0x9C40, dport = 0x16 }")));
        assertNull(d.decode(PrettyLine.parse("[00000000000000000041] n inet_sock_local_out: { cpu_id = 0 }, { "
                + "sk = 0x1, seq = 0x1, ack_seq = 0x0, check = 0x0, window = 0x1, flags = 0x400A }")));
        String device = PrettyLineTest.fixture("device-events.txt").get(0);
        assertNull(d.decode(PrettyLine.parse(device.replace("[3] = 21", "[3] = 4"))));
    }

    @Test
    void clockValuesAreScaledToNanoseconds() {
        assertEquals(1_000, new PacketDecoder("n", 1_000_000_000L).nanoseconds(1_000));
        assertEquals(400, new PacketDecoder("n", 2_500_000_000L).nanoseconds(1_000));
    }

    @Test
    void aMissingFieldIsABadLine() {
        assertThrows(PrettyLine.BadLine.class, () -> new PacketDecoder("n", 1_000_000_000L).decode(PrettyLine.parse(
                "[00000000000000000042] n inet_sock_local_out: { cpu_id = 0 }, { sk = 0x1, seq = 0x1 }")));
    }
}
