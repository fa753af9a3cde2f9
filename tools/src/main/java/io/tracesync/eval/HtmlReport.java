package io.tracesync.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.core.network.TreeEdge;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The evaluation as one self-contained HTML file that opens offline: the run's parameters, the summary with what
 * each row measures, the conversions after the fact by age with a plot of their median error and width, the final
 * spanning forest (the live view's drawing, d3-hierarchy's radial tree) and every node in a sortable table with a
 * small plot of its error; a node's row opens its accuracy over time — the true error on its own scale beside the
 * error inside its guaranteed band (uPlot). The libraries are inlined from their
 * WebJars; the data are one JSON document in the page.
 */
public final class HtmlReport {

    /**
     * Points kept for the plots, all nodes together, and per node at most and at least: the page stays a few MB at
     * any size (1,000 points a node up to 400 nodes, 100 from 4,000). The statistics use every sample.
     */
    static final int POINTS = 400_000;
    static final int MOST_PER_NODE = 1000;
    static final int LEAST_PER_NODE = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What the report shows.
     *
     * @param run the simulation directory replayed
     * @param simulation the simulation's seed and settings
     * @param replaySettings the replay's own settings
     * @param rows the summary, first row tracesync's published factors
     * @param live the first row's factors sampled while in force, as the conversions after the fact are
     * @param late the conversions after the fact with the factor history, by age
     * @param findings further measured lines (corrections, time to ACCURATE)
     * @param tree the final spanning forest of tracesync's factors in {@code replay}
     * @param startNs the true time the plots' axes count from
     */
    public record Content(String run, Map<String, String> simulation, Map<String, String> replaySettings,
            List<SummaryRow> rows, ErrorStats live, List<AgeErrors> late, List<String> findings, Replay.Result replay, List<TreeEdge> tree,
            TrueClocks truth, long startNs) {
    }

    private HtmlReport() {
    }

    /** Writes {@code report.html} into {@code dir} (created if missing) and returns it. */
    public static Path write(Path dir, Content content) throws IOException {
        Files.createDirectories(dir);
        String json = JSON.writeValueAsString(data(content)).replace("</", "<\\/");
        String html = ReportAssets.template()
                .replace("/*@uplot.css@*/", ReportAssets.uplotCss())
                .replace("/*@uplot.js@*/", ReportAssets.uplotJs())
                .replace("/*@d3-hierarchy.js@*/", ReportAssets.d3HierarchyJs())
                .replace("/*@forest.js@*/", ReportAssets.forestJs())
                .replace("/*@report.js@*/", ReportAssets.reportJs())
                .replace("/*@data@*/", json);
        Path file = dir.resolve("report.html");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        return file;
    }

    /** The page's data: what report.js reads. */
    static ObjectNode data(Content c) {
        ObjectNode root = JSON.createObjectNode();
        root.put("run", c.run());
        root.set("simulation", pairs(c.simulation()));
        root.set("replay", pairs(c.replaySettings()));
        ArrayNode rows = root.putArray("summary");
        for (SummaryRow r : c.rows()) {
            ObjectNode o = rows.addObject().put("label", r.label()).put("meaning", r.meaning());
            stats(o, r.errors());
        }
        ObjectNode afterTheFact = root.putObject("after_the_fact");
        stats(afterTheFact.putObject("live"), c.live());
        ArrayNode ages = afterTheFact.putArray("ages");
        for (AgeErrors a : c.late()) {
            ObjectNode o = ages.addObject().put("age", a.age().label());
            stats(o, a.errors());
            put(o, "interpolated_pct", a.interpolatedPercent());
            put(o, "error_ratio", a.errorRatio(c.live()));
            put(o, "width_ratio", a.widthRatio(c.live()));
            put(o, "newest_median_us", a.newest().medianNs() / 1e3);
            put(o, "newest_width_us", a.newest().medianWidthNs() / 1e3);
        }
        ArrayNode findings = root.putArray("findings");
        c.findings().forEach(findings::add);
        Map<String, FactorRow> latest = new TreeMap<>();
        c.replay().factors().forEach(f -> latest.put(f.node(), f));
        root.set("tree", tree(c.tree(), latest));
        ArrayNode factors = root.putArray("factors");
        latest.values().forEach(f -> {
            ObjectNode o = factors.addObject().put("node", f.node()).put("reference", f.reference())
                    .put("component", f.reference());
            if (f.bounded()) {
                o.put("bound_ns", Math.max(f.upPs(), f.downPs()) / 1e3);
            } else {
                o.putNull("bound_ns");
            }
        });
        ArrayNode nodes = root.putArray("nodes");
        int nodesWithSeries = (int) c.replay().factors().stream().filter(f -> !f.node().equals(f.reference()))
                .map(FactorRow::node).distinct().count();
        int perNode = Math.max(LEAST_PER_NODE, Math.min(MOST_PER_NODE, POINTS / Math.max(1, nodesWithSeries)));
        NodeSeries.of(c.replay(), c.truth(), perNode).values().forEach(s -> {
            ObjectNode o = nodes.addObject().put("node", s.node())
                    .put("reference", latest.get(s.node()).reference());
            s.references().forEach(o.putArray("measured_against")::add);
            stats(o, s.stats());
            ArrayNode t = o.putArray("t_s");
            ArrayNode e = o.putArray("error_us");
            ArrayNode up = o.putArray("up_us");
            ArrayNode down = o.putArray("down_us");
            for (int i = 0; i < s.trueNs().length; i++) {
                t.add((s.trueNs()[i] - c.startNs()) / 1e9);
                number(e, s.errorNs()[i] / 1e3);
                number(up, s.upNs()[i] / 1e3);
                number(down, s.downNs()[i] / 1e3);
            }
        });
        return root;
    }

    /** The forest as the live view's {@code /tree} gives it: each component named by its reference. */
    private static ObjectNode tree(List<TreeEdge> edges, Map<String, FactorRow> latest) {
        ObjectNode tree = JSON.createObjectNode();
        Map<String, Integer> sizes = new TreeMap<>();
        latest.values().forEach(f -> sizes.merge(f.reference(), 1, Integer::sum));
        ArrayNode components = tree.putArray("components");
        sizes.forEach((reference, n) -> components.addObject().put("reference", reference).put("nodes", n));
        ArrayNode out = tree.putArray("edges");
        edges.forEach(e -> out.addObject().put("a", e.a()).put("b", e.b()).put("weight", e.weight()));
        return tree;
    }

    private static ArrayNode pairs(Map<String, String> settings) {
        ArrayNode out = JSON.createArrayNode();
        settings.forEach((k, v) -> out.addArray().add(k).add(v));
        return out;
    }

    /** Error statistics in µs (inside in %); null where there is nothing to measure. */
    private static void stats(ObjectNode o, ErrorStats s) {
        o.put("samples", s.count());
        put(o, "median_us", s.medianNs() / 1e3);
        put(o, "p99_us", s.p99Ns() / 1e3);
        put(o, "max_us", s.maxNs() / 1e3);
        put(o, "inside_pct", s.insidePercent());
        put(o, "width_us", s.medianWidthNs() / 1e3);
        put(o, "max_width_us", s.maxWidthNs() / 1e3);
    }

    private static void put(ObjectNode o, String name, double v) {
        if (Double.isNaN(v)) {
            o.putNull(name);
        } else {
            o.put(name, rounded(v));
        }
    }

    /** A value to ns precision when it is in µs; null for NaN. */
    private static void number(ArrayNode a, double v) {
        if (Double.isNaN(v)) {
            a.addNull();
        } else {
            a.add(rounded(v));
        }
    }

    private static double rounded(double v) {
        return Math.round(v * 1e3) / 1e3;
    }
}
