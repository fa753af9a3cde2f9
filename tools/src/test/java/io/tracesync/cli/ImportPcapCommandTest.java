package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceFiles;
import io.tracesync.pcap.CaptureFiles;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code import pcap} reads and writes with {@code --events-out}, and the input that stops it with nothing
 * written. Writing to the topics is {@code import csv}'s writer, tested on a real broker.
 */
class ImportPcapCommandTest {

    /** Nothing listens here: a run that tried to reach Kafka would fail with exit code 1, not 2. */
    private static final String NO_BROKER = "127.0.0.1:9";

    @TempDir
    Path dir;

    private static CaptureFiles.Packet packet(long ts, String src, String dst, int sport, int dport, long seq,
            long ack, int flags) {
        return new CaptureFiles.Packet(ts, CaptureFiles.frame(276, CaptureFiles.tcp(src, dst, sport, dport, seq, ack,
                flags, 10)));
    }

    private Path capture(String name, List<CaptureFiles.Packet> packets) throws Exception {
        return Files.write(dir.resolve(name), CaptureFiles.write(CaptureFiles.Format.PCAPNG_LE, 276, packets));
    }

    @Test
    void sendsAndReceivesOfTheInferredAddressBecomeTheSimulatorsTraceFile() throws Exception {
        Path pcap = capture("n1.pcapng", List.of(
                packet(1_000, "10.0.0.1", "10.0.0.2", 40000, 80, 1, 0, 0x02),
                packet(2_000, "10.0.0.2", "10.0.0.1", 80, 40000, 9, 2, 0x12),
                packet(3_000, "fd00::3", "fd00::4", 5, 6, 7, 8, 0x18),
                packet(4_000, "10.0.0.3", "10.0.0.1", 5, 6, 7, 8, 0x11),
                packet(5_000, "10.0.0.4", "10.0.0.5", 5, 6, 7, 8, 0x10)));
        Path events = dir.resolve("events");
        CliRun r = CliRun.of("import", "pcap", "--node", "n1", "--events-out", events.toString(), pcap.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of(TraceCsv.HEADER,
                "n1,1000,SEND,10.0.0.1,10.0.0.2,40000,80,1,0,S",
                "n1,2000,RECV,10.0.0.2,10.0.0.1,80,40000,9,2,SA",
                "n1,4000,RECV,10.0.0.3,10.0.0.1,5,6,7,8,FA"), Files.readAllLines(events.resolve("n1.csv")));
        assertTrue(r.out().contains("imported 3 events of node n1 from 1 file(s) into " + events.resolve("n1.csv")),
                r.out());
        assertTrue(r.out().contains("addresses of n1 (inferred): 10.0.0.1"), r.out());
        assertTrue(r.out().contains("left out: 2 TCP packet(s) neither from nor to the node, 0 between its own "
                + "addresses, 1 without a timestamp (simple packet blocks)"), r.out());
        assertEquals(List.of(events.resolve("n1.csv").toAbsolutePath()), TraceFiles.resolve(List.of(events)));
        try (BufferedReader in = Files.newBufferedReader(events.resolve("n1.csv"))) {
            TraceCsv.read(in, line -> assertNull(line.error(), "line " + line.number()));
        }
    }

    @Test
    void aCaptureThatCannotBeReadIsReportedAsFileReasonAndNothingIsWritten() throws Exception {
        byte[] whole = CaptureFiles.write(CaptureFiles.Format.PCAP_NANOS_BE, 1, List.of(new CaptureFiles.Packet(1,
                CaptureFiles.frame(1, CaptureFiles.tcp("10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2, 0)))));
        Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(whole, whole.length - 5));
        Path text = Files.writeString(dir.resolve("text.pcap"), "hello");
        Path events = dir.resolve("events");
        CliRun r = CliRun.of("import", "pcap", "--node", "n1", "--address", "10.0.0.1", "--events-out",
                events.toString(), cut.toString(), text.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(cut + ": truncated: the file ends inside the packet record at byte 24",
                text + ": not a pcap or pcapng capture (first bytes 68656c6c)",
                "error: nothing imported: the captures above cannot be read"), r.err().lines().toList());
        assertFalse(Files.exists(events));
    }

    @Test
    void addressesThatCannotBeToldAreAnError() throws Exception {
        Path pcap = capture("one.pcapng", List.of(packet(1, "10.0.0.1", "10.0.0.2", 1, 2, 3, 4, 2),
                packet(2, "10.0.0.2", "10.0.0.1", 2, 1, 4, 4, 0x12)));
        CliRun inferred = CliRun.of("import", "pcap", "--node", "n1", "--bootstrap-servers", NO_BROKER,
                pcap.toString());
        assertEquals(2, inferred.exit());
        assertEquals("error: n1: cannot tell the node's address: 10.0.0.1, 10.0.0.2 each talk with 1 peer(s); name "
                + "it with --address", inferred.err().strip());
        CliRun wrong = CliRun.of("import", "pcap", "--node", "n1", "--address", "10.9.9.9", "--bootstrap-servers",
                NO_BROKER, pcap.toString());
        assertEquals(2, wrong.exit());
        assertEquals("error: n1: no TCP packet from or to 10.9.9.9 (seen: 10.0.0.1, 10.0.0.2)", wrong.err().strip());
        Path empty = capture("none.pcapng", List.of());
        CliRun none = CliRun.of("import", "pcap", "--node", "n1", empty.toString());
        assertEquals(2, none.exit());
        assertEquals("error: n1: no TCP packets in the captures", none.err().strip());
        CliRun bad = CliRun.of("import", "pcap", "--node", "n1", "--address", "host.example", pcap.toString());
        assertEquals("error: --address 'host.example' is not an IPv4 or IPv6 address", bad.err().strip());
        CliRun node = CliRun.of("import", "pcap", "--node", "a/b", pcap.toString());
        assertEquals("error: --node 'a/b' cannot name a topic (1 to 200 letters, digits, '.', '_', '-')",
                node.err().strip());
    }
}
