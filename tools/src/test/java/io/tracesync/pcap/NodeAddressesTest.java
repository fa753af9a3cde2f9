package io.tracesync.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NodeAddressesTest {

    private static TcpSegment segment(String src, String dst) {
        return new TcpSegment(0, CaptureFiles.address(src), CaptureFiles.address(dst), 1, 2, 3, 4, 16);
    }

    @Test
    void theAddressTalkingWithTheMostPeersIsTheNodes() {
        NodeAddresses a = new NodeAddresses();
        a.see(segment("10.0.0.1", "10.0.0.2"));
        a.see(segment("10.0.0.3", "10.0.0.1"));
        a.see(segment("10.0.0.1", "10.0.0.2"));
        assertEquals("10.0.0.1", a.infer());
    }

    @Test
    void oneConversationCannotTell() {
        NodeAddresses a = new NodeAddresses();
        a.see(segment("10.0.0.1", "10.0.0.2"));
        a.see(segment("10.0.0.2", "10.0.0.1"));
        assertEquals("cannot tell the node's address: 10.0.0.1, 10.0.0.2 each talk with 1 peer(s); name it with "
                + "--address", assertThrows(IllegalArgumentException.class, a::infer).getMessage());
    }

    @Test
    void literalsAreCheckedAndNormalized() {
        assertEquals("fd00:0:0:0:0:0:0:1", NodeAddresses.parse("fd00::1"));
        assertEquals("10.0.0.1", NodeAddresses.parse(" 10.0.0.1"));
        assertThrows(IllegalArgumentException.class, () -> NodeAddresses.parse("example.org"));
        assertThrows(IllegalArgumentException.class, () -> NodeAddresses.parse("10.0.0.256"));
    }
}
