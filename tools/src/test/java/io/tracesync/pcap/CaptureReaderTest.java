package io.tracesync.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CaptureReaderTest {

    private static final List<CaptureFiles.Packet> PACKETS = List.of(
            new CaptureFiles.Packet(1_700_000_000_123_456_789L, new byte[] {1, 2, 3}),
            new CaptureFiles.Packet(1_700_000_001_000_001_000L, new byte[] {4, 5, 6, 7, 8}));

    private static List<Frame> read(byte[] file) throws IOException {
        List<Frame> frames = new ArrayList<>();
        CaptureReader.read(new ByteArrayInputStream(file), frames::add);
        return frames;
    }

    @ParameterizedTest
    @EnumSource(CaptureFiles.Format.class)
    void everyFormatGivesItsPacketsAndTimestamps(CaptureFiles.Format format) throws IOException {
        List<Frame> frames = read(CaptureFiles.write(format, 113, PACKETS));
        assertEquals(2, frames.size());
        boolean micros = format.name().contains("MICROS");
        assertEquals(micros ? 1_700_000_000_123_456_000L : 1_700_000_000_123_456_789L, frames.get(0).tsNs());
        assertEquals(1_700_000_001_000_001_000L, frames.get(1).tsNs());
        assertEquals(113, frames.get(0).linkType());
        assertArrayEquals(new byte[] {4, 5, 6, 7, 8}, frames.get(1).data());
        assertEquals(2, frames.get(1).number());
    }

    @Test
    void pcapngCountsSimplePacketBlocksAsUntimed() throws IOException {
        long untimed = CaptureReader.read(new ByteArrayInputStream(CaptureFiles.write(CaptureFiles.Format.PCAPNG_BE,
                1, PACKETS)), f -> { });
        assertEquals(1, untimed);
    }

    @Test
    void pcapngDefaultsToMicrosecondsAndReadsBinaryResolutionAndOffset() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(200).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1)
                .putInt(28);
        b.putInt(1).putInt(20).putShort((short) 1).putShort((short) 0).putInt(0).putInt(20);
        b.putInt(1).putInt(44).putShort((short) 1).putShort((short) 0).putInt(0)
                .putShort((short) 9).putShort((short) 1).put((byte) 0x81).put(new byte[3])
                .putShort((short) 14).putShort((short) 8).putLong(10).putInt(0).putInt(44);
        b.putInt(6).putInt(32).putInt(0).putInt(0).putInt(7).putInt(0).putInt(0).putInt(32);
        b.putInt(6).putInt(32).putInt(1).putInt(0).putInt(7).putInt(0).putInt(0).putInt(32);
        List<Frame> frames = read(Arrays.copyOf(b.array(), b.position()));
        assertEquals(7_000L, frames.get(0).tsNs());
        assertEquals(3_500_000_000L + 10_000_000_000L, frames.get(1).tsNs());
    }

    @ParameterizedTest
    @EnumSource(CaptureFiles.Format.class)
    void aTruncatedFileIsAClearError(CaptureFiles.Format format) {
        byte[] whole = CaptureFiles.write(format, 1, PACKETS);
        for (int cut : new int[] {2, 10, whole.length - 3}) {
            CaptureFormatException e = assertThrows(CaptureFormatException.class,
                    () -> read(Arrays.copyOf(whole, cut)), "cut at " + cut);
            assertEquals(true, e.getMessage().startsWith("truncated: the file ends inside the "), e.getMessage());
        }
    }

    @Test
    void otherFilesAreNotCaptures() {
        assertEquals("not a pcap or pcapng capture (first bytes 6e6f6465)", assertThrows(CaptureFormatException.class,
                () -> read("node,ts_ns\n".getBytes())).getMessage());
        assertEquals("empty file, not a pcap or pcapng capture", assertThrows(CaptureFormatException.class,
                () -> read(new byte[0])).getMessage());
    }

    @Test
    void aPacketOfAnUndescribedInterfaceIsAnError() {
        ByteBuffer b = ByteBuffer.allocate(100).order(ByteOrder.BIG_ENDIAN);
        b.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1)
                .putInt(28);
        b.putInt(6).putInt(32).putInt(0).putInt(0).putInt(7).putInt(0).putInt(0).putInt(32);
        assertEquals("enhanced packet block at byte 28 names interface 0 of 0 described",
                assertThrows(CaptureFormatException.class, () -> read(Arrays.copyOf(b.array(), b.position())))
                        .getMessage());
    }
}
