package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EvaluateCommandTest {

    @TempDir
    Path dir;

    private int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cmd = new CommandLine(new TracesyncCommand());
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @Test
    void summarizesASimulatedRunAndWritesTheFactors() throws Exception {
        Path sim = dir.resolve("sim");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "simulate", "--out", sim.toString(), "--nodes", "4", "--duration", "30s",
                "--seed", "3"), err.toString());
        Path factors = dir.resolve("factors.csv");
        out = new StringWriter();
        Path html = dir.resolve("report");
        assertEquals(0, run(out, err, "evaluate", "--run", sim.toString(), "--factors", factors.toString(),
                "--report", html.toString(), "--compare-horizons", "10s,none"), err.toString());
        assertTrue(out.toString().contains("tracesync, horizon 10s: node vs ref."), out.toString());
        assertTrue(out.toString().contains("tracesync, horizon none: node vs ref."), out.toString());
        out = new StringWriter();
        assertEquals(0, run(out, err, "evaluate", "--run", sim.toString(), "--weight", "bound-width"), err.toString());
        assertTrue(out.toString().contains("tracesync: node vs its reference"), out.toString());
        assertTrue(Files.readString(html.resolve("report.html")).contains("data:image/png;base64,"));
        String report = out.toString();
        assertTrue(report.contains("tracesync: node vs its reference"), report);
        assertTrue(report.contains("Zipkin/Jaeger midpoint: per exchange"), report);
        String staticRow = report.lines().filter(l -> l.startsWith("static reference n0: node vs it")).findFirst()
                .orElseThrow();
        assertTrue(staticRow.trim().endsWith("100.00"), "static reference, bounded and inside too: " + staticRow);
        for (String label : new String[] {"Trace Compass policy: node vs its reference",
                "Duda regression: node vs its reference"}) {
            String row = report.lines().filter(l -> l.startsWith(label)).findFirst().orElseThrow(() ->
                    new AssertionError(label + " missing: " + report));
            assertTrue(row.trim().endsWith(" -"), "a baseline without bounds: " + row);
        }
        assertTrue(report.contains(" 0 inversions"), report);
        String tracesyncRow = report.lines().filter(l -> l.startsWith("tracesync: node vs")).findFirst().orElseThrow();
        assertTrue(tracesyncRow.trim().endsWith("100.00"), "every bounded error inside its bounds: " + tracesyncRow);
        assertEquals("true_ns,node,reference,slope,offset,up_ns,down_ns", Files.readAllLines(factors).get(0));
    }

    @Test
    void knownMinimumDelaysKeepTheGuaranteeAndNarrowTheError() throws Exception {
        Path sim = dir.resolve("sim");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "simulate", "--out", sim.toString(), "--nodes", "4", "--duration", "30s",
                "--seed", "5"), err.toString());
        out = new StringWriter();
        assertEquals(0, run(out, err, "evaluate", "--run", sim.toString()), err.toString());
        double plain = median(out.toString());
        out = new StringWriter();
        assertEquals(0, run(out, err, "evaluate", "--run", sim.toString(), "--known-min-delays"), err.toString());
        String report = out.toString();
        String row = report.lines().filter(l -> l.startsWith("tracesync: node vs")).findFirst().orElseThrow();
        assertTrue(row.trim().endsWith("100.00"), "every bounded error inside its bounds: " + row);
        assertTrue(report.contains(" 0 inversions"), report);
        assertTrue(median(report) < plain / 5, median(report) + " µs with known minimum delays vs " + plain);
    }

    /** The median of tracesync's node-vs-reference row, in µs. */
    private static double median(String report) {
        String row = report.lines().filter(l -> l.startsWith("tracesync: node vs")).findFirst().orElseThrow();
        return Double.parseDouble(row.substring("tracesync: node vs its reference".length()).trim().split("\\s+")[1]);
    }

    @Test
    void refusesADirectoryThatIsNotASimulatedRun() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, run(out, err, "evaluate", "--run", dir.toString()));
        assertTrue(err.toString().contains("truth-pairs.csv not found"), err.toString());
        assertEquals(2, run(out, err, "evaluate", "--run", dir.toString(), "--interval", "0"));
    }
}
