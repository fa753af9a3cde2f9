package io.tracesync.it;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, headless, as a person's browser for the live view: the page's DOM after its scripts ran, and
 * a screenshot. Fails with a clear message where Chromium is not installed (.ci/run installs it).
 */
final class HeadlessChromium {

    private static final Path BINARY = Path.of("/usr/bin/chromium");

    private final Path profile;

    HeadlessChromium(Path dir) throws IOException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: install Debian's chromium package "
                    + "(apt-get install chromium; .ci/run does) to test the live view, or leave the tests that need "
                    + "it out: -DexcludedGroups=chromium");
        }
        this.profile = Files.createDirectories(dir.resolve("chromium-profile"));
    }

    /** The page's DOM once its scripts have run for {@code budgetMs} of virtual time. */
    String dom(String url, int budgetMs) throws IOException, InterruptedException {
        return new String(run("--dump-dom", "--virtual-time-budget=" + budgetMs, url), StandardCharsets.UTF_8);
    }

    /** A PNG of the page at the given window size. */
    Path screenshot(String url, Path png, int width, int height, int budgetMs)
            throws IOException, InterruptedException {
        run("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--virtual-time-budget=" + budgetMs, "--hide-scrollbars", url);
        return png;
    }

    private byte[] run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile(profile, "stderr", ".log");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s: " + Files.readString(err));
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("chromium exited with " + p.exitValue() + ": " + Files.readString(err));
        }
        return out;
    }

    /** How many pixels of the image have exactly this colour (0xRRGGBB). */
    static long pixels(BufferedImage image, int rgb) {
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
