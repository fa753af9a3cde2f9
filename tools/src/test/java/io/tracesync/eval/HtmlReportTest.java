package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.network.TreeEdge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    @TempDir
    Path dir;

    /** a's factor: offset 990 from t=10 (bounds +5/-20 ns), offset 1020 from t=20; b is the reference. */
    private static Replay.Result twoFactors() {
        return new Replay.Result(List.of(Linear.row(10, "a", "b", 990, 5_000, 20_000),
                Linear.row(10, "b", "b", 0, 0, 0), Linear.row(20, "a", "b", 1020, 30_000, 10_000)), Map.of(), 5, 30);
    }

    private static HtmlReport.Content content(Replay.Result replay) {
        ErrorStats stats = Metrics.factorErrors(replay, Linear.CLOCKS);
        return new HtmlReport.Content("runs/</script>", Map.of("seed", "7"), Map.of("interval", "5ns"),
                List.of(new SummaryRow("tracesync: node vs its reference", "what it measures", stats)), stats,
                Metrics.afterTheFact(replay, Linear.CLOCKS, List.of(new Age(Duration.ZERO), Age.END),
                        new HistoryGate(0)), List.of("links ACCURATE: 1 of 1"), replay,
                List.of(new TreeEdge("a", "b", 1e-9)), Linear.CLOCKS, 0);
    }

    @Test
    void seriesFollowTheFactorInForce() {
        Map<String, NodeSeries> series = NodeSeries.of(twoFactors(), Linear.CLOCKS, 100);
        NodeSeries a = series.get("a");
        assertEquals(List.of("b"), a.references());
        assertEquals(List.of(10L, 15L, 20L, 25L), List.of(a.trueNs()[0], a.trueNs()[1], a.trueNs()[2], a.trueNs()[3]));
        assertEquals(List.of(-10.0, -10.0, 20.0, 20.0), list(a.errorNs()));
        assertEquals(List.of(5.0, 5.0, 30.0, 30.0), list(a.upNs()));
        assertEquals(List.of(20.0, 20.0, 10.0, 10.0), list(a.downNs()));
        assertEquals(4, a.stats().count());
        assertEquals(0.0, a.stats().insidePercent(), "-10 is outside [-5, 20], 20 outside [-30, 10]");
        assertFalse(series.containsKey("b"), "the reference has no error");
    }

    @Test
    void aMovingReferenceIsShownAsItMovedNotAsItsLastMeasurement() throws Exception {
        // b is a's reference until t=20, when a becomes the reference of both
        Replay.Result moved = new Replay.Result(List.of(Linear.row(10, "a", "b", 990, 5_000, 20_000),
                Linear.row(10, "b", "b", 0, 0, 0), Linear.row(20, "a", "a", 0, 0, 0),
                Linear.row(20, "b", "a", -990, 5_000, 5_000)), Map.of(), 5, 30);
        assertEquals(List.of("b"), NodeSeries.of(moved, Linear.CLOCKS, 100).get("a").references());
        Matcher m = Pattern.compile("(?s)<script type=\"application/json\" id=\"data\">(.*?)</script>")
                .matcher(Files.readString(HtmlReport.write(dir, content(moved))));
        assertTrue(m.find());
        JsonNode a = new ObjectMapper().readTree(m.group(1)).get("nodes").get(0);
        assertEquals("a", a.get("node").asText());
        assertEquals("a", a.get("reference").asText(), "where the reference is now");
        assertEquals("[\"b\"]", a.get("measured_against").toString(), "what it was measured against");
    }

    @Test
    void thinnedSeriesKeepEveryExtremeInTimeOrder() {
        long[] offsets = new long[200];
        Random random = new Random(3);
        List<FactorRow> rows = new ArrayList<>(List.of(Linear.row(0, "b", "b", 0, 0, 0)));
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = 1000 + random.nextInt(2001) - 1000;
            rows.add(Linear.row(i, "a", "b", offsets[i], 0, 0));
        }
        NodeSeries a = NodeSeries.of(new Replay.Result(rows, Map.of(), 1, offsets.length), Linear.CLOCKS, 20)
                .get("a");
        assertTrue(a.trueNs().length <= 20, "thinned to " + a.trueNs().length);
        for (int i = 1; i < a.trueNs().length; i++) {
            assertTrue(a.trueNs()[i] > a.trueNs()[i - 1], "in time order");
        }
        double min = Arrays.stream(offsets).min().getAsLong() - 1000;
        double max = Arrays.stream(offsets).max().getAsLong() - 1000;
        assertTrue(list(a.errorNs()).contains(min) && list(a.errorNs()).contains(max), "extremes kept");
        assertEquals(200, a.stats().count(), "statistics over every sample");
    }

    @Test
    void writesOneSelfContainedPageWithItsData() throws Exception {
        String html = Files.readString(HtmlReport.write(dir, content(twoFactors())));
        assertFalse(html.contains("/*@"), "every placeholder filled");
        assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing loaded from outside");
        assertTrue(html.contains("uPlot") && html.contains("d3-hierarchy") && html.contains("TracesyncForest"),
                "the libraries and the forest drawing are inlined");
        Matcher m = Pattern.compile("(?s)<script type=\"application/json\" id=\"data\">(.*?)</script>").matcher(html);
        assertTrue(m.find(), "the data document");
        JsonNode data = new ObjectMapper().readTree(m.group(1));
        assertEquals("runs/</script>", data.get("run").asText(), "the run's name cannot end the script early");
        assertEquals("tracesync: node vs its reference", data.get("summary").get(0).get("label").asText());
        assertEquals(0.02, data.get("summary").get(0).get("max_us").asDouble(), 1e-12);
        assertEquals(List.of("seed", "7"), List.of(data.get("simulation").get(0).get(0).asText(),
                data.get("simulation").get(0).get(1).asText()));
        JsonNode a = data.get("nodes").get(0);
        assertEquals("a", a.get("node").asText());
        assertEquals(List.of(10e-9, 15e-9, 20e-9, 25e-9), doubles(a.get("t_s")), "seconds, to the ns");
        assertEquals("[-0.01,-0.01,0.02,0.02]", a.get("error_us").toString());
        assertEquals(1, data.get("nodes").size(), "no series for the reference");
        assertEquals(2, data.get("factors").size(), "the reference is in the forest and the table");
        assertEquals("b", data.get("tree").get("components").get(0).get("reference").asText());
        assertEquals(2, data.get("tree").get("components").get(0).get("nodes").asInt());
        // both of a's factors are anchored at 0: at the end the later answers for every time, off by 20 ns
        JsonNode late = data.get("after_the_fact");
        assertEquals(0.01, late.get("live").get("median_us").asDouble(), 1e-12);
        assertEquals(List.of("0s", "end"), List.of(late.get("ages").get(0).get("age").asText(),
                late.get("ages").get(1).get("age").asText()));
        assertEquals(1.0, late.get("ages").get(0).get("error_ratio").asDouble(), 1e-12);
        assertEquals(0.02, late.get("ages").get(1).get("median_us").asDouble(), 1e-12);
        assertEquals(2.0, late.get("ages").get(1).get("error_ratio").asDouble(), 1e-12);
        assertEquals(0.0, late.get("ages").get(1).get("interpolated_pct").asDouble());
        assertEquals(0.04, late.get("ages").get(1).get("width_us").asDouble(), 1e-12);
        assertEquals(0.02, late.get("ages").get(1).get("newest_median_us").asDouble(), 1e-12, "the same factor");
    }

    private static List<Double> list(double[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    private static List<Double> doubles(JsonNode array) {
        List<Double> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asDouble()));
        return out;
    }
}
