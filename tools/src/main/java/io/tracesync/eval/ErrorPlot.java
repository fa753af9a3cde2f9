package io.tracesync.eval;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's accuracy over time as a PNG: the true error (estimate − truth) of the factor in force against the
 * reference's true clock (blue) inside its guaranteed band [−up, +down] (grey: the truth lies in [estimate − down,
 * estimate + up]), in µs against seconds of true time. Only bounded factors are drawn.
 */
public final class ErrorPlot {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 320;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 40;

    /** One sample: at true time t, the true error and the band, all in ns. */
    record Sample(long trueNs, double errorNs, double upNs, double downNs) {
    }

    private ErrorPlot() {
    }

    /** Every node's samples of its bounded factors, by node. */
    static Map<String, List<Sample>> samples(Replay.Result replay, TrueClocks truth) {
        Map<String, List<Sample>> out = new TreeMap<>();
        Metrics.forEachError(replay, truth, (row, t, e) -> {
            if (row.bounded()) {
                long local = truth.localAt(row.node(), t);
                out.computeIfAbsent(row.node(), n -> new ArrayList<>())
                        .add(new Sample(t, e, row.upAtPs(local) / 1e3, row.downAtPs(local) / 1e3));
            }
        });
        return out;
    }

    /** The PNG of a node's samples, times relative to {@code startNs}; a note instead of axes when empty. */
    public static byte[] png(String title, List<Sample> samples, long startNs) {
        BufferedImage image = Png.canvas(WIDTH, HEIGHT);
        Graphics2D g = Png.graphics(image);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString(title, LEFT, 18);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        if (samples.isEmpty()) {
            g.drawString("no bounded factor", LEFT, HEIGHT / 2);
        } else {
            draw(g, samples, startNs);
        }
        g.dispose();
        return Png.encode(image);
    }

    private static void draw(Graphics2D g, List<Sample> samples, long startNs) {
        double t0 = (samples.get(0).trueNs() - startNs) / 1e9;
        double t1 = Math.max(t0 + 1e-9, (samples.get(samples.size() - 1).trueNs() - startNs) / 1e9);
        double y = 1e-3;
        for (Sample s : samples) {
            y = Math.max(y, Math.max(Math.abs(s.errorNs()), Math.max(s.upNs(), s.downNs())) / 1e3);
        }
        Axes axes = new Axes(t0, t1, -y * 1.05, y * 1.05);
        Path2D band = new Path2D.Double();
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            double x = axes.x((s.trueNs() - startNs) / 1e9);
            if (i == 0) {
                band.moveTo(x, axes.y(s.downNs() / 1e3));
            } else {
                band.lineTo(x, axes.y(s.downNs() / 1e3));
            }
        }
        for (int i = samples.size() - 1; i >= 0; i--) {
            Sample s = samples.get(i);
            band.lineTo(axes.x((s.trueNs() - startNs) / 1e9), axes.y(-s.upNs() / 1e3));
        }
        band.closePath();
        g.setColor(new Color(210, 210, 210));
        g.fill(band);
        axes.draw(g);
        Path2D error = new Path2D.Double();
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            double x = axes.x((s.trueNs() - startNs) / 1e9);
            double v = axes.y(s.errorNs() / 1e3);
            if (i == 0) {
                error.moveTo(x, v);
            } else {
                error.lineTo(x, v);
            }
        }
        g.setColor(new Color(30, 90, 200));
        g.setStroke(new BasicStroke(1.5f));
        g.draw(error);
        g.setColor(Color.DARK_GRAY);
        g.drawString("true error (blue) and guaranteed bounds (grey), µs; true time, s", LEFT + 200, 18);
    }

    /** A linear frame with tick labels. */
    private record Axes(double x0, double x1, double y0, double y1) {

        double x(double v) {
            return LEFT + (v - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT);
        }

        double y(double v) {
            return HEIGHT - BOTTOM - (v - y0) / (y1 - y0) * (HEIGHT - TOP - BOTTOM);
        }

        void draw(Graphics2D g) {
            g.setColor(Color.BLACK);
            g.drawRect(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
            g.setColor(Color.GRAY);
            g.drawLine(LEFT, (int) y(0), WIDTH - RIGHT, (int) y(0));
            for (int i = 0; i <= 4; i++) {
                double xv = x0 + (x1 - x0) * i / 4;
                double yv = y0 + (y1 - y0) * i / 4;
                g.drawString(String.format("%.0f", xv), (int) x(xv) - 10, HEIGHT - BOTTOM + 15);
                g.drawString(String.format("%.2f", yv), 5, (int) y(yv) + 4);
            }
        }
    }
}
