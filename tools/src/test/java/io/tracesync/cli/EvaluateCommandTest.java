package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluateCommandTest {

    @TempDir
    Path dir;

    /** A 4-node, 30-second simulated run. */
    private Path simulate(long seed) {
        Path sim = dir.resolve("sim");
        CliRun r = CliRun.of("simulate", "--out", sim.toString(), "--nodes", "4", "--duration", "30s", "--seed",
                Long.toString(seed));
        assertEquals(0, r.exit(), r.err());
        return sim;
    }

    @Test
    void summarizesASimulatedRunAndWritesTheFactors() throws Exception {
        Path sim = simulate(3);
        Path factors = dir.resolve("factors.csv");
        Path html = dir.resolve("report");
        CliRun r = CliRun.of("evaluate", "--run", sim.toString(), "--factors", factors.toString(), "--report",
                html.toString(), "--compare-horizons", "10s,none");
        assertEquals(0, r.exit(), r.err());
        String report = r.out();
        assertTrue(report.contains("tracesync, horizon 10s: node vs ref."), report);
        assertTrue(report.contains("tracesync, horizon none: node vs ref."), report);
        String page = Files.readString(html.resolve("report.html"));
        assertTrue(page.contains("<script type=\"application/json\" id=\"data\">") && page.contains("uPlot"),
                "the report's data and charts");
        assertTrue(report.contains("tracesync: node vs its reference"), report);
        assertTrue(report.contains("Zipkin/Jaeger midpoint: per exchange"), report);
        String staticRow = report.lines().filter(l -> l.startsWith("static reference n0: node vs it")).findFirst()
                .orElseThrow();
        assertEquals("100.00", column(staticRow, 4), "static reference, bounded and inside too: " + staticRow);
        for (String label : new String[] {"Trace Compass policy: node vs its reference",
                "Duda regression: node vs its reference"}) {
            String row = report.lines().filter(l -> l.startsWith(label)).findFirst().orElseThrow(() ->
                    new AssertionError(label + " missing: " + report));
            assertEquals("-", column(row, 4), "a baseline without bounds: " + row);
        }
        assertTrue(report.contains(" 0 inversions"), report);
        for (String label : new String[] {"tracesync: node vs", "tracesync, spanning tree: node vs"}) {
            String row = report.lines().filter(l -> l.startsWith(label)).findFirst().orElseThrow();
            assertEquals("100.00", column(row, 4), "every bounded error inside its bounds: " + row);
        }
        assertTrue(Double.parseDouble(column(tracesyncRow(report, "tracesync: node vs"), 5))
                <= Double.parseDouble(column(tracesyncRow(report, "tracesync, spanning tree"), 5)),
                "all links never wider than the tree: " + report);
        assertEquals("true_ns,node,reference,slope,offset,up_ns,down_ns", Files.readAllLines(factors).get(0));
        String live = tracesyncRow(report, "live: the factor in force");
        assertEquals(column(tracesyncRow(report, "tracesync: node vs"), 1), column(live, 1), "live is the first row");
        String atZero = tracesyncRow(report, "0s after");
        assertEquals(column(live, 1), column(atZero, 1), "at age 0 the factor in force answers: " + report);
        for (String age : new String[] {"10s after", "1m after", "10m after", "1h after", "at the end of the run"}) {
            assertEquals("100.00", column(tracesyncRow(report, age), 4), "every true error inside: " + report);
        }
        assertTrue(page.contains("\"after_the_fact\":{\"live\":"), "the report's table after the fact");

        CliRun weighted = CliRun.of("evaluate", "--run", sim.toString(), "--weight", "bound-width");
        assertEquals(0, weighted.exit(), weighted.err());
        assertTrue(weighted.out().contains("tracesync: node vs its reference"), weighted.out());
    }

    @Test
    void knownMinimumDelaysKeepTheGuaranteeAndNarrowTheError() {
        Path sim = simulate(5);
        CliRun plain = CliRun.of("evaluate", "--run", sim.toString());
        assertEquals(0, plain.exit(), plain.err());
        CliRun known = CliRun.of("evaluate", "--run", sim.toString(), "--known-min-delays");
        assertEquals(0, known.exit(), known.err());
        String report = known.out();
        String row = report.lines().filter(l -> l.startsWith("tracesync: node vs")).findFirst().orElseThrow();
        assertEquals("100.00", column(row, 4), "every bounded error inside its bounds: " + row);
        assertTrue(report.contains(" 0 inversions"), report);
        assertTrue(median(report) < median(plain.out()) / 5,
                median(report) + " µs with known minimum delays vs " + median(plain.out()));
    }

    /** The median of tracesync's node-vs-reference row, in µs. */
    private static double median(String report) {
        return Double.parseDouble(column(tracesyncRow(report, "tracesync: node vs"), 1));
    }

    private static String tracesyncRow(String report, String label) {
        return report.lines().filter(l -> l.startsWith(label)).findFirst().orElseThrow();
    }

    /** Column k after the 44-character label: samples, median, p99, max, inside %, width, max width. */
    private static String column(String row, int k) {
        return row.substring(44).trim().split("\\s+")[k];
    }

    @Test
    void aDaemonsStartIsDetectedAndEveryMessageItInvertsLiesInADetectionWindow() {
        Path sim = dir.resolve("chrony");
        CliRun run = CliRun.of("simulate", "--out", sim.toString(), "--nodes", "4", "--duration", "2m", "--ntp-poll",
                "64s", "--ntp-daemon", "chrony", "--ntp-start-offset", "50ms");
        assertEquals(0, run.exit(), run.err());
        CliRun r = CliRun.of("evaluate", "--run", sim.toString(), "--excursion", "20us");
        assertEquals(0, r.exit(), r.err());
        Matcher inversions = Pattern.compile("(\\d+) inversions \\((\\d+) of them in the detection windows, (\\d+) "
                + "elsewhere\\)").matcher(r.out());
        assertTrue(inversions.find(), r.out());
        assertTrue(Long.parseLong(inversions.group(1)) > 0, "the 50-ms slews invert messages: " + r.out());
        assertEquals("0", inversions.group(3), "none outside the windows: " + r.out());
        Matcher where = Pattern.compile("the inversions by link, most first: \\S+ (\\d+) \\(received at ([\\d.]+)–"
                + "([\\d.]+) s of the run, at most ([\\d.]+) µs before their send\\)").matcher(r.out());
        assertTrue(where.find(), r.out());
        assertTrue(Long.parseLong(where.group(1)) <= Long.parseLong(inversions.group(1)), r.out());
        assertTrue(Double.parseDouble(where.group(3)) < 30, "the start's inversions in its first seconds: " + r.out());
        assertTrue(Double.parseDouble(where.group(4)) > 0, r.out());
        Matcher slews = Pattern.compile("slews beyond link.excursion \\(offsets over 10.0 µs\\): \\d+, (\\d+) "
                + "detected").matcher(r.out());
        assertTrue(slews.find() && Integer.parseInt(slews.group(1)) >= 4, "each node's start detected: " + r.out());
        assertTrue(r.out().contains("), 0 elsewhere"), "no factor sample outside its bounds elsewhere: " + r.out());
        Matcher late = Pattern.compile("after correction after the fact \\(both ends converted with the factor "
                + "histories known 10s after the message's receipt\\): \\d+ messages, (\\d+) inversions \\((\\d+) of "
                + "them in the detection windows, (\\d+) elsewhere\\)").matcher(r.out());
        assertTrue(late.find(), r.out());
        assertEquals("0", late.group(3), "after the fact none outside the windows either: " + r.out());
        assertTrue(Long.parseLong(late.group(1)) <= Long.parseLong(inversions.group(1)), "no more than live: "
                + r.out());
        long[] kept = kept(r.out(), "5.0");
        assertTrue(0 < kept[0] && kept[0] < kept[1], "the history keeps some of the factors published: " + r.out());
        CliRun spacingAlone = CliRun.of("evaluate", "--run", sim.toString(), "--excursion", "20us",
                "--history-tolerance", "0", "--ages", "10s");
        assertEquals(0, spacingAlone.exit(), spacingAlone.err());
        long[] alone = kept(spacingAlone.out(), "0.0");
        assertEquals(kept[1], alone[1], "the same factors published");
        assertTrue(alone[0] <= kept[0], "the tolerance only adds versions: " + alone[0] + " vs " + kept[0]);
    }

    /** The factor history's versions kept and the factors published, from an evaluation's findings. */
    private static long[] kept(String out, String tolerance) {
        Matcher m = Pattern.compile("the factor history \\(factors.history.spacing 10s, tolerance "
                + Pattern.quote(tolerance) + " µs\\) keeps (\\d+) of the (\\d+) factors published").matcher(out);
        assertTrue(m.find(), out);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    @Test
    void agesAreDurationsOrTheEnd() {
        Path sim = simulate(3);
        CliRun r = CliRun.of("evaluate", "--run", sim.toString(), "--ages", "5s,end");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\n5s after ") && r.out().contains("\nat the end of the run "), r.out());
        assertTrue(!r.out().contains("10s after"), r.out());
        CliRun bad = CliRun.of("evaluate", "--run", sim.toString(), "--ages", "soon");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("'soon' is not a duration"), bad.err());
    }

    @Test
    void refusesADirectoryThatIsNotASimulatedRun() {
        CliRun r = CliRun.of("evaluate", "--run", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("truth-pairs.csv not found"), r.err());
        assertEquals(2, CliRun.of("evaluate", "--run", dir.toString(), "--interval", "0").exit());
    }
}
