package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.TreeEdge;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
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

    @Test
    void samplesFollowTheFactorInForce() {
        List<ErrorPlot.Sample> s = ErrorPlot.samples(twoFactors(), Linear.CLOCKS).get("a");
        assertEquals(List.of(new ErrorPlot.Sample(10, -10, 5, 20), new ErrorPlot.Sample(15, -10, 5, 20),
                new ErrorPlot.Sample(20, 20, 30, 10), new ErrorPlot.Sample(25, 20, 30, 10)), s);
        assertTrue(!ErrorPlot.samples(twoFactors(), Linear.CLOCKS).containsKey("b"), "the reference has no error");
    }

    @Test
    void drawsTheErrorInsideItsBandAndEmbedsThePlots() throws Exception {
        Path html = HtmlReport.write(dir, "summary <table>", twoFactors(), List.of(new TreeEdge("a", "b", 1e-9)),
                Linear.CLOCKS, 0, 4);
        String text = Files.readString(html);
        assertTrue(text.contains("summary &lt;table&gt;"), text);
        assertTrue(text.contains("data:image/png;base64,"), "embedded plot");
        BufferedImage png = ImageIO.read(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("error-a.png"))));
        assertEquals(900, png.getWidth());
        int blue = 0;
        int grey = 0;
        for (int x = 0; x < png.getWidth(); x++) {
            for (int y = 0; y < png.getHeight(); y++) {
                int rgb = png.getRGB(x, y) & 0xFFFFFF;
                blue += rgb == 0x1E5AC8 ? 1 : 0;
                grey += rgb == 0xD2D2D2 ? 1 : 0;
            }
        }
        assertTrue(blue > 100, "the error line is drawn: " + blue);
        assertTrue(grey > 1000, "the bounds band is drawn: " + grey);
        assertTrue(Files.notExists(dir.resolve("error-b.png")), "no plot for the reference");
        BufferedImage tree = ImageIO.read(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("tree.png"))));
        int red = 0;
        for (int x = 0; x < tree.getWidth(); x++) {
            for (int y = 0; y < tree.getHeight(); y++) {
                red += (tree.getRGB(x, y) & 0xFFFFFF) == 0xFF0000 ? 1 : 0;
            }
        }
        assertTrue(red > 20, "the reference drawn in red: " + red);
    }

    @Test
    void theLargestComponentIsNamedByItsReference() {
        Replay.Result r = new Replay.Result(List.of(Linear.row(0, "a", "b", 0, 0, 0), Linear.row(0, "b", "b", 0, 0, 0),
                Linear.row(0, "c", "c", 0, 0, 0), Linear.row(5, "c", "b", 0, 0, 0), Linear.row(0, "d", "d", 0, 0, 0)),
                Map.of(), 5, 10);
        assertEquals("b", HtmlReport.largestComponent(r));
    }
}
