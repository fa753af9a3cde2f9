package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tracesync evaluate --report} as a reader opens it, offline, in headless Chromium: every script ran, every
 * node is in the table and the forest, the worst node's two plots are drawn; the screenshot is kept in target/ to
 * look at.
 */
@Tag("chromium")
class EvaluationReportTest {

    private static final int NODES = 16;

    @TempDir
    Path dir;

    @Test
    void theReportDrawsEveryNodeOffline() throws Exception {
        Path run = dir.resolve("run");
        PackagedJar.TOOLS.run(120, "simulate", "--out", run.toString(), "--nodes", String.valueOf(NODES),
                "--duration", "90s", "--seed", "4");
        PackagedJar.TOOLS.run(120, "evaluate", "--run", run.toString(), "--report", dir.resolve("report").toString());
        String page = dir.resolve("report/report.html").toUri().toString();
        HeadlessChromium chromium = new HeadlessChromium(dir);
        String dom = chromium.dom(page, 5000);
        assertTrue(dom.contains("data-ready=\"true\""), "the report's script did not finish: " + errors(dom));
        assertTrue(Pattern.compile("<div id=\"errors\" hidden=\"\">\\s*</div>").matcher(dom).find(), errors(dom));
        assertEquals(NODES, count(dom, "<tr data-node="), "one table row per node");
        assertEquals(NODES, count(dom, "<circle"), "one circle per node in the forest");
        // Every node measured against a reference has its small plot: all but a reference that never changed.
        long measured = count(dom, "class=\"spark\" data-node=");
        assertTrue(measured >= NODES - 1, measured + " nodes measured");
        assertEquals(3 + measured, count(dom, "<div class=\"uplot"),
                "the plot by age after the fact, the node's two plots and every measured row's small plot");
        assertEquals(3 + measured, count(dom, "<canvas"), "each drawn");
        String late = dom.substring(dom.indexOf("id=\"after-the-fact-table\""));
        assertEquals(8, count(late.substring(0, late.indexOf("</table>")), "<tr"),
                "the header, live and the six default ages after the fact");
        assertTrue(Pattern.compile("<h3 id=\"detail-title\">n\\d+ against n\\d+: median error").matcher(dom).find(),
                "the worst node is selected");
        assertFalse(dom.contains("NaN"), "no NaN shown");
        Path png = chromium.screenshot(page, Path.of("target", "evaluation-report.png"), 1300, 3000, 5000);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1300, image.getWidth());
        assertTrue(HeadlessChromium.pixels(image, 0x1e5ac8) > 200, "the error lines are visible in " + png.toAbsolutePath());
    }

    private static String errors(String dom) {
        int at = dom.indexOf("id=\"errors\"");
        return at < 0 ? dom : dom.substring(at, Math.min(dom.length(), at + 500));
    }

    private static long count(String text, String what) {
        return Pattern.compile(Pattern.quote(what)).matcher(text).results().count();
    }
}
