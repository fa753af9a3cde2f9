package io.tracesync.eval;

import io.tracesync.core.network.TreeEdge;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The evaluation as one self-contained HTML file (plots embedded) plus the same plots as PNG files: the summary
 * table, then accuracy over time for the nodes whose true error was largest.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    /**
     * Writes {@code report.html}, {@code tree.png} (the final spanning tree's largest component) and
     * {@code error-NODE.png} for up to {@code plots} nodes into {@code dir}; returns the HTML file.
     */
    public static Path write(Path dir, String summary, Replay.Result replay, List<TreeEdge> tree, TrueClocks truth,
            long startNs, int plots) throws IOException {
        Files.createDirectories(dir);
        byte[] treePng = TreePlot.png(tree, largestComponent(replay));
        Files.write(dir.resolve("tree.png"), treePng);
        Map<String, List<ErrorPlot.Sample>> byNode = ErrorPlot.samples(replay, truth);
        List<String> worst = new ArrayList<>(byNode.keySet());
        worst.sort(Comparator.comparingDouble((String n) -> -maxError(byNode.get(n))).thenComparing(n -> n));
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tracesync evaluation</title>")
                .append("<style>body{font-family:sans-serif;margin:2em}pre{background:#f4f4f4;padding:1em}</style>")
                .append("</head><body>\n<h1>tracesync against the ground truth</h1>\n<pre>")
                .append(escape(summary)).append("</pre>\n<h2>The spanning tree at the end</h2>\n");
        image(html, "spanning tree", treePng);
        html.append("<h2>Accuracy over time, largest errors first</h2>\n");
        for (String node : worst.subList(0, Math.min(plots, worst.size()))) {
            byte[] png = ErrorPlot.png("node " + node, byNode.get(node), startNs);
            Files.write(dir.resolve("error-" + node + ".png"), png);
            image(html, "accuracy of " + node, png);
        }
        html.append("</body></html>\n");
        Path file = dir.resolve("report.html");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        return file;
    }

    private static void image(StringBuilder html, String alt, byte[] png) {
        html.append("<p><img alt=\"").append(escape(alt)).append("\" src=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(png)).append("\"></p>\n");
    }

    /** The reference of the most nodes, by their latest factors (ties: the smaller name). */
    static String largestComponent(Replay.Result replay) {
        Map<String, String> latest = new TreeMap<>();
        replay.factors().forEach(r -> latest.put(r.node(), r.reference()));
        Map<String, Integer> sizes = new TreeMap<>();
        latest.values().forEach(ref -> sizes.merge(ref, 1, Integer::sum));
        return sizes.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).map(Map.Entry::getKey)
                .orElse("");
    }

    private static double maxError(List<ErrorPlot.Sample> samples) {
        return samples.stream().mapToDouble(s -> Math.abs(s.errorNs())).max().orElse(0);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
