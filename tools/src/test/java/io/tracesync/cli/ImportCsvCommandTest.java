package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.TraceEvent;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceFiles;
import io.tracesync.sim.SimulatedTraces;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code import csv} does before it writes: the files it reads, the events they give, and the bad input that
 * stops it with nothing written. Writing to the topics is tested on a real broker (integration tests).
 */
class ImportCsvCommandTest {

    /** Nothing listens here: a run that tried to reach Kafka would fail with exit code 1, not 2. */
    private static final String NO_BROKER = "127.0.0.1:9";

    @TempDir
    Path dir;

    @Test
    void aSimulatedRunReadsBackAsTheEventsTheDemoWrites() throws Exception {
        Path run = dir.resolve("run");
        CliRun sim = CliRun.of("simulate", "--out", run.toString(), "--nodes", "4", "--duration", "10s", "--seed",
                "3");
        assertEquals(0, sim.exit(), sim.err());
        List<TraceEvent> read = new ArrayList<>();
        for (Path f : TraceFiles.resolve(List.of(run))) {
            try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.ISO_8859_1)) {
                TraceCsv.read(in, line -> {
                    assertNull(line.error(), f + ":" + line.number());
                    if (line.event() != null) {
                        read.add(line.event());
                    }
                });
            }
        }
        SimulatedTraces expected = SimulatedTraces.run(4, 10_000_000_000L, 3);
        assertEquals(expected.nodes.size(), TraceFiles.resolve(List.of(run)).size());
        for (String node : expected.nodes) {
            assertEquals(expected.events.stream().filter(e -> e.getNode().equals(node)).toList(),
                    read.stream().filter(e -> e.getNode().equals(node)).toList(), node);
        }
    }

    @Test
    void badLinesAreListedAsFileLineReasonAndNothingIsImported() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), TraceCsv.HEADER + "\n"
                + "a,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PA\n"
                + "a,2,SEND,10.0.0.1,10.0.0.2,1,2,3,4\n");
        Path b = Files.writeString(dir.resolve("b.csv"), "b,1,RECV,10.0.0.1,10.0.0.2,1,2,3,4,PA\n"
                + "b,-1,RECV,10.0.0.1,10.0.0.2,1,2,3,4,PA\n");
        CliRun r = CliRun.of("import", "csv", a.toString(), b.toString(), "--bootstrap-servers", NO_BROKER);
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(a + ":3: expected 10 fields (" + TraceCsv.HEADER + ") but found 9: "
                        + "a,2,SEND,10.0.0.1,10.0.0.2,1,2,3,4",
                b + ":2: negative ts_ns -1",
                "error: 2 bad line(s): nothing imported (--skip-bad-lines imports the others)"),
                r.err().lines().toList());
        assertEquals("", r.out());
    }

    @Test
    void manyBadLinesAreCountedBeyondTheFirstTwenty() throws Exception {
        Path a = Files.writeString(dir.resolve("a.csv"), "garbage\n".repeat(25));
        CliRun r = CliRun.of("import", "csv", a.toString(), "--bootstrap-servers", NO_BROKER);
        assertEquals(2, r.exit(), r.err());
        List<String> err = r.err().lines().toList();
        assertEquals(21, err.size(), r.err());
        assertEquals(a + ":20: expected 10 fields (" + TraceCsv.HEADER + ") but found 1: garbage", err.get(19));
        assertEquals("error: ... and 5 more; 25 bad line(s): nothing imported (--skip-bad-lines imports the others)",
                err.get(20));
    }

    @Test
    void aMissingFileOrADirectoryWithoutTracesStopsItBeforeAnythingIsRead() throws Exception {
        Path missing = dir.resolve("nope");
        CliRun r = CliRun.of("import", "csv", missing.toString(), "--bootstrap-servers", NO_BROKER);
        assertEquals(2, r.exit());
        assertEquals("error: " + missing + ": no such file or directory", r.err().strip());
        Path garbage = dir.resolve("garbage");
        Files.createDirectories(garbage);
        Files.writeString(garbage.resolve("x.txt"), "not a trace\n");
        CliRun none = CliRun.of("import", "csv", garbage.toString(), "--bootstrap-servers", NO_BROKER);
        assertEquals(2, none.exit());
        assertTrue(none.err().startsWith("error: " + garbage + ": no trace files"), none.err());
    }

    @Test
    void importNeedsAFormatAndCsvAPath() {
        CliRun none = CliRun.of("import");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("Missing the format: import csv PATH..."), none.err());
        CliRun noPath = CliRun.of("import", "csv");
        assertEquals(2, noPath.exit());
        assertTrue(noPath.err().contains("Missing required parameter: 'PATH'"), noPath.err());
    }

    @Test
    void helpNamesTheFormatTheOptionsAndWhatABadLineDoes() {
        CliRun parent = CliRun.of("import", "--help");
        assertEquals(0, parent.exit());
        assertTrue(parent.out().contains("csv"), parent.out());
        CliRun help = CliRun.of("import", "csv", "--help");
        assertEquals(0, help.exit());
        for (String s : List.of("PATH...", "--config", "--bootstrap-servers", "--schema-registry-url", "-D",
                "--skip-bad-lines", "events/*.csv", "FILE:LINE: reason")) {
            assertTrue(help.out().contains(s), s + " in\n" + help.out());
        }
        assertTrue(CliRun.of("--help").out().contains("import"));
    }
}
