package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SyncPairsCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new TracesyncCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path csv(String content) throws IOException {
        Path p = dir.resolve("pairs.csv");
        Files.writeString(p, content);
        return p;
    }

    @Test
    void twoNodeJsonFollowsTheContract() throws IOException {
        // b = a + 1000 exactly, delays 10..20 ns: b's map to the reference a is t - 1000 within the delays.
        Path p = csv("sender,send_ns,receiver,recv_ns,extra\n"
                + "n1,0,n2,1010,x\n"
                + "n2,1100,n1,115,y\n"
                + "n1,200,n2,1220\n"
                + "n2,1300,n1,312\n"
                + "n1,400,n2,1411\n");
        Run r = run("sync-pairs", "--pairs", p.toString(), "--json", "--at", "0", "--at", "400", "--horizon", "none");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode link = root.get("links").get(0);
        assertEquals("n1", link.get("a").asText());
        assertEquals("n2", link.get("b").asText());
        assertEquals(5, link.get("pairs").asInt());
        assertEquals("ACCURATE", link.get("quality").asText());
        assertTrue(link.get("hull_points").asInt() >= 2);
        for (String f : new String[] {"slope_min", "intercept_min", "slope_max", "intercept_max", "slope",
                "intercept", "slope_accuracy"}) {
            assertTrue(link.get(f).isTextual(), f);
            new BigDecimal(link.get(f).asText());
        }
        assertEquals(2, link.get("bounds").size());
        assertEquals(400, link.get("bounds").get(1).get("t").asLong());
        assertTrue(link.get("bounds").get(1).get("up_ns").isNumber());
        assertEquals("n1", root.get("reference").asText());
        JsonNode n2 = root.get("nodes").get(1);
        assertEquals("n2", n2.get("node").asText());
        BigDecimal slope = new BigDecimal(n2.get("slope").asText());
        BigDecimal offset = new BigDecimal(n2.get("offset").asText());
        BigDecimal bound = n2.get("bound_ns").decimalValue();
        // t_n1 of n2's 1411 is 401 +- the bound, and truth 1411 - 1000 - delay lies in [391, 401].
        BigDecimal conv = slope.multiply(BigDecimal.valueOf(1411)).add(offset);
        assertTrue(conv.subtract(BigDecimal.valueOf(401)).abs().compareTo(bound.add(BigDecimal.TEN)) <= 0,
                conv + " +- " + bound);
    }

    @Test
    void sampleFileRecoversTheKnownDrift() {
        Path sample = Path.of("..", "examples", "two-nodes.csv");
        Run r = run("sync-pairs", "--pairs", sample.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"quality\" : \"ACCURATE\""), r.out());
        Run text = run("sync-pairs", "--pairs", sample.toString());
        assertTrue(text.out().contains("reference clock: alpha"), text.out());
    }

    @Test
    void badLinesAreReportedWithTheirLineNumber() throws IOException {
        assertBad("n1,0,n2,10\nn1,5,n2\n", "pairs.csv:2: expected sender,send_ns,receiver,recv_ns");
        assertBad("n1,0,n2,10\n\nn1,x,n2,3\n", "pairs.csv:3: send_ns is not an integer");
        assertBad("n1,0,n1,10\n", "pairs.csv:1: node n1 sends to itself");
        assertBad("n1,0,n2,99999999999999999999\n", "pairs.csv:1: recv_ns is not an integer");
        assertBad("n1,0,,10\n", "pairs.csv:1: empty node id");
    }

    private void assertBad(String content, String expected) throws IOException {
        Run r = run("sync-pairs", "--pairs", csv(content).toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void unknownReferenceAndMissingFileAreErrors() throws IOException {
        Run r = run("sync-pairs", "--pairs", csv("n1,0,n2,10\n").toString(), "--reference", "zz");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("reference node zz does not occur"), r.err());
        Run missing = run("sync-pairs", "--pairs", dir.resolve("nope.csv").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("cannot read"), missing.err());
    }

    @Test
    void oneDirectionOnlyHasNoFactorsAndSaysWhy() throws IOException {
        Run r = run("sync-pairs", "--pairs", csv("a,0,b,10\na,20,b,35\n").toString(), "--json");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("\"quality\" : \"INCOMPLETE\""));
        assertTrue(r.err().contains("no factors for node b"), r.err());
    }

    @Test
    void everyCommandHasHelp() {
        assertTrue(run("--help").out().contains("sync-pairs"));
        assertTrue(run("sync-pairs", "--help").out().contains("--pairs"));
    }

    @Test
    void durationsParseLikeOtherTools() {
        DurationConverter c = new DurationConverter();
        assertEquals(java.time.Duration.ofMinutes(30), c.convert("30m"));
        assertEquals(java.time.Duration.ofMillis(1500), c.convert("1.5s"));
        assertEquals(java.time.Duration.ZERO, c.convert("none"));
        assertEquals(java.time.Duration.ofHours(2), c.convert("PT2H"));
    }
}
