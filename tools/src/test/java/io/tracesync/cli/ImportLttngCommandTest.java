package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.avro.TraceEvent;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceFiles;
import io.tracesync.lttng.ScpTrace;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import lttng} on the real scp trace of two hosts (docs/REAL-INPUTS.md), offline (files only), and on bad
 * input. Writing to the topics is the same writer as {@code import csv}'s.
 */
@Tag("babeltrace2")
class ImportLttngCommandTest {

    /** Nothing listens here: a run that tried to reach Kafka would fail with exit code 1, not 2. */
    private static final String NO_BROKER = "127.0.0.1:9";

    @TempDir
    Path dir;

    /**
     * The device-level layout (net_dev_queue, net_if_receive_skb) through babeltrace2 and its muxer (two streams
     * per trace): synthetic CTF traces of a TCP handshake written by {@code make-device-traces.py}.
     */
    @Test
    void deviceLevelTracesOfSeveralStreams() throws Exception {
        ScpTrace.requireBabeltrace();
        Path traces = Path.of(getClass().getResource("/io/tracesync/lttng/device-traces").toURI());
        Path pairs = dir.resolve("pairs.csv");
        Path events = dir.resolve("events");
        CliRun r = CliRun.of("import", "lttng", "--files-only", "--pairs-out", pairs.toString(), "--events-out",
                events.toString(), traces.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("read 6 packet events of 2 nodes from 2 trace(s)"), r.out()); // not the loopback
        assertEquals(List.of("sender,send_ns,receiver,recv_ns", "node-a,5000000000,node-b,2000100000",
                "node-b,2000200000,node-a,5000300000", "node-a,5000350000,node-b,2000450000"),
                Files.readAllLines(pairs));
        assertEquals(List.of(TraceCsv.HEADER, "node-b,2000100000,RECV,10.0.10.4,10.0.10.21,48361,22,2769203724,0,S",
                "node-b,2000200000,SEND,10.0.10.21,10.0.10.4,22,48361,1629881572,2769203725,SA",
                "node-b,2000450000,RECV,10.0.10.4,10.0.10.21,48361,22,2769203725,1629881573,A"),
                Files.readAllLines(events.resolve("node-b.csv")));
    }

    @Test
    void theScpTraceGivesMatchedPairsInBothDirectionsAndAnAccurateLink() throws Exception {
        Path pairs = dir.resolve("pairs.csv");
        Path events = dir.resolve("events");
        CliRun r = CliRun.of("import", "lttng", "--files-only", "--pairs-out", pairs.toString(), "--events-out",
                events.toString(), ScpTrace.path().toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("read " + ScpTrace.EVENTS + " packet events of 2 nodes from 2 trace(s)"),
                r.out());
        assertTrue(r.out().matches("(?s).*" + ScpTrace.SOURCE + " +" + ScpTrace.SOURCE_EVENTS + "\n.*"
                + ScpTrace.DESTINATION + " +" + ScpTrace.DESTINATION_EVENTS + "\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*" + ScpTrace.PAIRS + " matched pair\\(s\\).*"
                + ScpTrace.SOURCE + " -> " + ScpTrace.DESTINATION + " +" + ScpTrace.PAIRS_FROM_SOURCE + "\n.*"
                + ScpTrace.DESTINATION + " -> " + ScpTrace.SOURCE + " +" + ScpTrace.PAIRS_FROM_DESTINATION
                + "\n.*"), r.out());

        List<TraceEvent> read = new ArrayList<>();
        for (Path f : TraceFiles.resolve(List.of(events))) {
            try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.ISO_8859_1)) {
                TraceCsv.read(in, line -> {
                    assertNull(line.error(), f + ":" + line.number());
                    if (line.event() != null) {
                        read.add(line.event());
                    }
                });
            }
        }
        assertEquals(ScpTrace.EVENTS, read.size());
        assertEquals(1 + ScpTrace.PAIRS, Files.readAllLines(pairs).size()); // and the header

        CliRun sync = CliRun.of("sync-pairs", "--pairs", pairs.toString(), "--json", "--horizon", "none");
        assertEquals(0, sync.exit(), sync.err());
        JsonNode root = new ObjectMapper().readTree(sync.out());
        JsonNode link = root.get("links").get(0);
        assertEquals(ScpTrace.SOURCE, link.get("a").asText());
        assertEquals(ScpTrace.DESTINATION, link.get("b").asText());
        assertEquals(ScpTrace.PAIRS, link.get("pairs").asInt());
        assertEquals("ACCURATE", link.get("quality").asText());
        JsonNode vm3 = root.get("nodes").get(1);
        assertEquals(ScpTrace.DESTINATION, vm3.get("node").asText());
        assertTrue(vm3.get("bound_ns").asDouble() < 200_000, vm3.toString());
    }

    @Test
    void inputThatIsNoTraceExitsWith2() throws Exception {
        CliRun missing = CliRun.of("import", "lttng", "--bootstrap-servers", NO_BROKER, dir.resolve("nope")
                .toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nope: no such file or directory"), missing.err());

        CliRun empty = CliRun.of("import", "lttng", "--bootstrap-servers", NO_BROKER, dir.toString());
        assertEquals(2, empty.exit());
        assertTrue(empty.err().contains("no CTF trace"), empty.err());

        ScpTrace.path();
        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("metadata"), "not CTF\n");
        Files.writeString(bad.resolve("channel0_0"), "x");
        CliRun unreadable = CliRun.of("import", "lttng", "--bootstrap-servers", NO_BROKER, bad.toString());
        assertEquals(2, unreadable.exit());
        assertTrue(unreadable.err().startsWith("error: " + bad.toAbsolutePath()
                + ": babeltrace2 cannot read it"),
                unreadable.err());
    }

    @Test
    void nodeNamesOneTrace() {
        CliRun r = CliRun.of("import", "lttng", "--bootstrap-servers", NO_BROKER, "--node", "x",
                ScpTrace.path().toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--node names the node of one trace, but 2 traces were found"), r.err());
    }
}
