package io.tracesync.eval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * What the HTML report inlines, read from the class path: its page and script, the live view's forest drawing, and
 * the chart libraries from their WebJars (the version read from each WebJar's own Maven properties).
 */
final class ReportAssets {

    private ReportAssets() {
    }

    static String template() {
        return text("io/tracesync/eval/report.html");
    }

    static String reportJs() {
        return text("io/tracesync/eval/report.js");
    }

    static String forestJs() {
        return text("io/tracesync/streams/http/forest.js");
    }

    static String uplotJs() {
        return webJar("uplot", "dist/uPlot.iife.min.js");
    }

    static String uplotCss() {
        return webJar("uplot", "dist/uPlot.min.css");
    }

    static String d3HierarchyJs() {
        return webJar("d3-hierarchy", "dist/d3-hierarchy.min.js");
    }

    /** A file of the npm WebJar {@code artifact}, at the version on the class path. */
    private static String webJar(String artifact, String file) {
        Properties pom = new Properties();
        String properties = "META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
        try (InputStream in = open(properties)) {
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text("META-INF/resources/webjars/" + artifact + "/" + pom.getProperty("version") + "/" + file);
    }

    private static String text(String resource) {
        try (InputStream in = open(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String resource) {
        InputStream in = ReportAssets.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(resource + " is not on the class path: the build packs it into the "
                    + "tools jar");
        }
        return in;
    }
}
