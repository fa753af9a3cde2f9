package io.tracesync.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TcpSegmentTest {

    @ParameterizedTest
    @CsvSource({"1, 10.1.2.3, 10.1.2.4", "113, 10.1.2.3, 10.1.2.4", "276, 10.1.2.3, 10.1.2.4",
        "101, 10.1.2.3, 10.1.2.4", "1, fd00::1, fd00::2", "113, fd00::1, fd00::2", "276, fd00::1, fd00::2",
        "101, fd00::1, fd00::2"})
    void everyLinkTypeAndIpVersionGivesTheSegment(int linkType, String src, String dst) throws Exception {
        byte[] frame = CaptureFiles.frame(linkType, CaptureFiles.tcp(src, dst, 40000, 80, 0xFFFF_FFF0L, 7, 0x18,
                100));
        TcpSegment s = TcpSegment.of(new Frame(linkType, 42, frame, 1, 0));
        assertEquals(src.contains(":") ? 16 : 4, s.saddr().length);
        assertEquals(NodeAddresses.parse(src), NodeAddresses.text(s.saddr()));
        assertEquals(NodeAddresses.parse(dst), NodeAddresses.text(s.daddr()));
        assertEquals(40000, s.sport());
        assertEquals(80, s.dport());
        assertEquals(0xFFFF_FFF0L, s.seq());
        assertEquals(7, s.ack());
        assertEquals(0x18, s.flags());
        assertEquals(42, s.tsNs());
    }

    @Test
    void vlanTagsAreSkipped() throws Exception {
        byte[] plain = CaptureFiles.frame(1, CaptureFiles.tcp("10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2, 0));
        byte[] tagged = new byte[plain.length + 4];
        System.arraycopy(plain, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81;
        tagged[15] = 5;
        System.arraycopy(plain, 12, tagged, 16, plain.length - 12);
        assertEquals(3, TcpSegment.of(new Frame(1, 0, tagged, 1, 0)).seq());
    }

    @Test
    void otherPacketsAreNone() throws Exception {
        byte[] udp = CaptureFiles.frame(1, CaptureFiles.tcp("10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2, 0));
        udp[14 + 9] = 17;
        assertNull(TcpSegment.of(new Frame(1, 0, udp, 1, 0)));
        byte[] arp = new byte[42];
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertNull(TcpSegment.of(new Frame(1, 0, arp, 1, 0)));
        byte[] fragment = CaptureFiles.frame(1, CaptureFiles.tcp("10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2, 0));
        fragment[14 + 7] = 1;
        assertNull(TcpSegment.of(new Frame(1, 0, fragment, 1, 0)));
    }

    @Test
    void aShortCaptureAndAnUnknownLinkTypeAreErrors() {
        byte[] frame = CaptureFiles.frame(1, CaptureFiles.tcp("10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2, 0));
        assertEquals("packet 9: only 40 bytes captured, too few for its TCP header (a snap length of at least 128 "
                + "bytes keeps it)", assertThrows(CaptureFormatException.class,
                        () -> TcpSegment.of(new Frame(1, 0, Arrays.copyOf(frame, 40), 9, 0))).getMessage());
        assertEquals("packet 1: link type 147 is not read (Ethernet 1, Linux cooked SLL 113 and SLL2 276, raw IP "
                + "101, 228, 229)", assertThrows(CaptureFormatException.class,
                        () -> TcpSegment.of(new Frame(147, 0, frame, 1, 0))).getMessage());
    }
}
