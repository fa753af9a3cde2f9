package io.tracesync.eval;

import io.tracesync.core.network.TreeEdge;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The spanning tree as a PNG, in a radial layout around the reference node (red): each node on the ring of its
 * hop distance, each subtree in an angular sector proportional to its size. One component only — the one of the
 * given reference; names are written while there are few enough nodes to read them.
 */
public final class TreePlot {

    private static final int SIZE = 800;
    private static final int LABELS_UP_TO = 120;

    private final Map<String, List<String>> children = new TreeMap<>();
    private final Map<String, Integer> subtree = new HashMap<>();
    private final Map<String, double[]> position = new HashMap<>();
    private int depth;

    private TreePlot() {
    }

    /** The tree edges' component of {@code reference}, drawn; a note when it has no edge. */
    public static byte[] png(List<TreeEdge> edges, String reference) {
        TreePlot plot = new TreePlot();
        plot.root(edges, reference);
        return plot.draw(reference);
    }

    /** Orients the component of r away from it, breadth first. */
    private void root(List<TreeEdge> edges, String r) {
        Map<String, List<String>> adjacent = new TreeMap<>();
        for (TreeEdge e : edges) {
            adjacent.computeIfAbsent(e.a(), k -> new ArrayList<>()).add(e.b());
            adjacent.computeIfAbsent(e.b(), k -> new ArrayList<>()).add(e.a());
        }
        List<String> order = new ArrayList<>(List.of(r));
        Map<String, Integer> level = new HashMap<>(Map.of(r, 0));
        for (int i = 0; i < order.size(); i++) {
            String x = order.get(i);
            children.put(x, new ArrayList<>());
            for (String y : adjacent.getOrDefault(x, List.of())) {
                if (!level.containsKey(y)) {
                    level.put(y, level.get(x) + 1);
                    depth = Math.max(depth, level.get(x) + 1);
                    children.get(x).add(y);
                    order.add(y);
                }
            }
        }
        for (int i = order.size() - 1; i >= 0; i--) {
            String x = order.get(i);
            subtree.put(x, 1 + children.get(x).stream().mapToInt(subtree::get).sum());
        }
        place(r, 0, 0, 2 * Math.PI);
    }

    private void place(String x, int ring, double from, double to) {
        double radius = depth == 0 ? 0 : ring * (SIZE / 2.0 - 40) / depth;
        double angle = (from + to) / 2;
        position.put(x, new double[] {SIZE / 2.0 + radius * Math.cos(angle), SIZE / 2.0 + radius * Math.sin(angle)});
        double start = from;
        for (String y : children.get(x)) {
            double span = (to - from) * subtree.get(y) / (subtree.get(x) - 1);
            place(y, ring + 1, start, start + span);
            start += span;
        }
    }

    private byte[] draw(String reference) {
        BufferedImage image = Png.canvas(SIZE, SIZE);
        Graphics2D g = Png.graphics(image);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString("spanning tree: " + subtree.get(reference) + " nodes, reference " + reference + " (red)", 10,
                18);
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.GRAY);
        children.forEach((x, ys) -> ys.forEach(y -> g.drawLine((int) position.get(x)[0], (int) position.get(x)[1],
                (int) position.get(y)[0], (int) position.get(y)[1])));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        boolean labels = position.size() <= LABELS_UP_TO;
        position.forEach((node, p) -> {
            boolean ref = node.equals(reference);
            int r = ref ? 6 : 3;
            g.setColor(ref ? Color.RED : new Color(30, 90, 200));
            g.fillOval((int) p[0] - r, (int) p[1] - r, 2 * r, 2 * r);
            if (labels || ref) {
                g.setColor(Color.BLACK);
                g.drawString(node, (int) p[0] + r + 1, (int) p[1] - r);
            }
        });
        g.dispose();
        return Png.encode(image);
    }
}
