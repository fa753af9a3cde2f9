package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code import otlp} checks and reports before and without writing. Writing to the topics is tested on a
 * real broker (integration tests).
 */
class ImportOtlpCommandTest {

    /** Nothing listens here: nothing is written in these runs, so nothing tries to reach it. */
    private static final String NO_BROKER = "127.0.0.1:9";

    @TempDir
    Path dir;

    @Test
    void itNeedsFilesOrATopicNotBothAndAKnownEncoding() throws Exception {
        Path f = Files.write(dir.resolve("a.pb"), new byte[0]);
        CliRun none = CliRun.of("import", "otlp");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("Give either FILEs or --topic"), none.err());
        CliRun both = CliRun.of("import", "otlp", "--topic", "otlp_spans", f.toString());
        assertEquals(2, both.exit());
        assertTrue(both.err().contains("Give either FILEs or --topic"), both.err());
        CliRun encoding = CliRun.of("import", "otlp", "--format", "zipkin_json", f.toString());
        assertEquals(2, encoding.exit());
        assertTrue(encoding.err().contains("unknown OTLP encoding zipkin_json (otlp_proto or otlp_json)"),
                encoding.err());
    }

    @Test
    void aMissingFileStopsItBeforeAnythingIsRead() {
        Path missing = dir.resolve("nope.json");
        CliRun r = CliRun.of("import", "otlp", "--format", "otlp_json", missing.toString(),
                "--bootstrap-servers", NO_BROKER);
        assertEquals(2, r.exit());
        assertEquals("error: " + missing + ": no such file", r.err().strip());
    }

    @Test
    void undecodableFilesAreListedAndCountedAndTheExitCodeIsTwo() throws Exception {
        Path proto = Files.write(dir.resolve("bad.pb"), new byte[] {(byte) 0xff, (byte) 0xff, 1});
        Path json = Files.writeString(dir.resolve("bad.json"), "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":"
                + "[{\"traceId\":\"zz\"}]}]}]}\n");
        Path empty = Files.writeString(dir.resolve("empty.json"), "{}\n");
        CliRun p = CliRun.of("import", "otlp", proto.toString(), "--bootstrap-servers", NO_BROKER, "-D",
                "startup.check.timeout=none");
        assertEquals(2, p.exit(), p.err());
        assertTrue(p.err().lines().anyMatch(l -> l.startsWith(proto + ": not an OTLP protobuf "
                + "ExportTraceServiceRequest: ")), p.err());
        assertTrue(p.out().contains("1 undecodable input(s), listed on stderr"), p.out());

        CliRun j = CliRun.of("import", "otlp", "--format", "otlp_json", json.toString(), empty.toString(),
                "--bootstrap-servers", NO_BROKER, "-D", "startup.check.timeout=none");
        assertEquals(2, j.exit(), j.err());
        assertEquals(List.of(json + ": traceId \"zz\" is not hex (OTLP/JSON writes ids as hex)"),
                j.err().lines().filter(l -> !l.isBlank()).toList());
        assertTrue(j.out().startsWith("imported 0 calls and 0 messages (0 events) of 0 hosts from 0 "
                + "client/server/producer/consumer spans"), j.out());
    }

    @Test
    void helpNamesTheEncodingsTheOptionsAndTheMapping() {
        CliRun parent = CliRun.of("import", "--help");
        assertTrue(parent.out().contains("otlp"), parent.out());
        CliRun help = CliRun.of("import", "otlp", "--help");
        assertEquals(0, help.exit());
        for (String s : List.of("--format", "otlp_proto", "otlp_json", "--topic", "--host-attributes",
                "host.id,host.name", "--window", "--config", "--bootstrap-servers",
                "--schema-registry-url", "-D", "FILE", "SERVER child", "PRODUCER span", "by a link")) {
            assertTrue(help.out().contains(s), s + " in\n" + help.out());
        }
    }
}
