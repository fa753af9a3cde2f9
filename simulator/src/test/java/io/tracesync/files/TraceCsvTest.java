package io.tracesync.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulatedTraffic;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceCsvTest {

    private static final String GOOD = "n0001,1700003600000000123,SEND,10.0.0.2,10.0.0.3,40001,8080,4294967295,7,PA";

    @Test
    void aSimulatorLineIsTheEventATracerWrites() throws Exception {
        TraceEvent e = TraceCsv.parse(GOOD);
        assertEquals("n0001", e.getNode());
        assertEquals(1700003600000000123L, e.getTsNs());
        assertEquals(Direction.SEND, e.getDirection());
        assertEquals(ByteBuffer.wrap(new byte[] {10, 0, 0, 2}), e.getSaddr());
        assertEquals(ByteBuffer.wrap(new byte[] {10, 0, 0, 3}), e.getDaddr());
        assertEquals(40001, e.getSport());
        assertEquals(8080, e.getDport());
        assertEquals(4294967295L, e.getSeq());
        assertEquals(7, e.getAckSeq());
        assertEquals(SimulatedTraffic.PSH_ACK, e.getFlags());
        assertNull(e.getLength());
    }

    @Test
    void flagsAreLettersOrAByteAddressesIpv6AndOptionalFieldsEmpty() throws Exception {
        TraceEvent e = TraceCsv.parse("b,0,RECV,::1,,,80,0,0,24");
        assertEquals(16, e.getSaddr().remaining());
        assertNull(e.getDaddr());
        assertNull(e.getSport());
        assertEquals(24, e.getFlags());
        assertEquals(0x02 | 0x10, TraceCsv.parse("b,0,RECV,,,,,0,0,SA").getFlags());
        assertEquals(0xFF, TraceCsv.parse("b,0,RECV,,,,,0,0,FSRPAUEC").getFlags());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4                  | expected 10 fields",
        "n 1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PA              | node 'n 1' cannot name a topic",
        "n1,12x,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PA             | ts_ns '12x' is not an integer number of nanoseconds",
        "n1,-5,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PA              | negative ts_ns -5",
        "n1,4611686018427387904,SEND,,,1,2,3,4,PA             | overflows (2^62 ns or more)",
        "n1,1,send,10.0.0.1,10.0.0.2,1,2,3,4,PA               | direction 'send' is neither SEND nor RECV",
        "n1,1,SEND,10.0.0.256,10.0.0.2,1,2,3,4,PA             | saddr '10.0.0.256' is not an IPv4 or IPv6 address",
        "n1,1,SEND,10.0.0.1,host.example,1,2,3,4,PA           | daddr 'host.example' is not an IPv4 or IPv6 address",
        "n1,1,SEND,10.0.0.1,1:2:3,1,2,3,4,PA                  | daddr '1:2:3' is not an IPv4 or IPv6 address",
        "n1,1,SEND,10.0.0.1,10.0.0.2,65536,2,3,4,PA           | sport 65536 is not a port",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,x,3,4,PA               | dport 'x' is not a port",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,4294967296,4,PA      | seq 4294967296 is not a 32-bit sequence number",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,-1,PA              | ack -1 is not a 32-bit sequence number",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PX               | flags 'PX' are neither TCP flag letters",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,256              | flags '256' are neither TCP flag letters",
        "n1,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,                 | flags '' are neither TCP flag letters"})
    void aBadLineSaysWhatIsWrong(String line, String reason) {
        TraceCsv.BadField bad = assertThrows(TraceCsv.BadField.class, () -> TraceCsv.parse(line));
        assertTrue(bad.getMessage().contains(reason), bad.getMessage());
    }

    @Test
    void everyLineIsReportedWithItsNumberAndLengthTheHeaderAndBlankLinesWithoutEvent() throws IOException {
        String text = TraceCsv.HEADER + "\n" + GOOD + "\n\n" + "n1,oops,SEND,,,,,0,0,PA\r\n" + GOOD + "\n";
        List<TraceCsv.Line> lines = new ArrayList<>();
        TraceCsv.read(new BufferedReader(new StringReader(text)), lines::add);
        assertEquals(5, lines.size());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), lines.stream().map(TraceCsv.Line::number).toList());
        assertNull(lines.get(0).event());
        assertNull(lines.get(0).error());
        assertEquals("n0001", lines.get(1).event().getNode());
        assertNull(lines.get(2).event());
        assertNull(lines.get(2).error());
        assertTrue(lines.get(3).error().startsWith("ts_ns 'oops'"), lines.get(3).error());
        assertEquals(text.length() - 1, lines.stream().mapToLong(TraceCsv.Line::bytes).sum()); // \r\n counted once
    }

    @Test
    void theHeaderIsOnlyTheFirstLine() throws IOException {
        List<TraceCsv.Line> lines = new ArrayList<>();
        TraceCsv.read(new BufferedReader(new StringReader(GOOD + "\n" + TraceCsv.HEADER + "\n")), lines::add);
        assertTrue(lines.get(1).error().startsWith("ts_ns 'ts_ns'"), lines.get(1).error());
    }
}
