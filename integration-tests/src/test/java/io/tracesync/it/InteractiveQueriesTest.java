package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.demo.SimulatedTruth;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.http.KnownTruth;
import io.tracesync.streams.http.OperationsServer;
import io.tracesync.streams.metrics.AppMetrics;
import io.tracesync.streams.network.FactorHistoryStore;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one application, each with its HTTP side: whichever is asked, the network's interactive queries
 * answer from the instance running the network task (the other forwards), and the answers are the offline ones.
 * Also health, metrics, errors, and every path of the OpenAPI description served.
 */
@ExtendWith(SharedKafkaEnvironment.class)
@Tag("chromium")
class InteractiveQueriesTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void everyInstanceAnswersWithTheNetworkTasksStores() throws Exception {
        Settings settings = Settings.of(SharedKafkaEnvironment.isolated("it-iq-" + UUID.randomUUID()))
                .with("topics.partitions", "3")
                .with("factors.min.change", "0")
                .with("factors.history.spacing", "0")
                .with("links.min.change", "0")
                .with("link.max.drift.ppm", "150");
        SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 7);
        Map<String, NodeFactor> expected = OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                settings.networkOptions());
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(cluster.nodes);
            // the simulated clocks, as the demo hands them to its HTTP side (a query is answered by the instance
            // running the network task, whichever is asked)
            KnownTruth truth = new SimulatedTruth(cluster::clock);
            try (Instance a = new Instance(settings, dir.resolve("a"), truth);
                 Instance b = new Instance(settings, dir.resolve("b"), truth)) {
                cluster.events.forEach(writer::write);
                writer.flush();
                FactorAnswers.await(settings, expected, WAIT);
                Waiting.until(() -> a.running() && b.running(), WAIT, "instances not RUNNING");
                Waiting.until(() -> status(a, "/factors") == 200 && status(b, "/factors") == 200
                        && count(a, "/factors", "factors") == expected.size(), WAIT, "no factors served");

                Map<String, NodeHistory> histories = histories(settings);
                for (Instance i : new Instance[] {a, b}) {
                    checkFactors(i, expected);
                    for (String node : cluster.nodes) {
                        checkConversion(i, expected, histories, node);
                    }
                    checkTree(i, expected);
                    assertEquals(200, status(i, "/health/live"));
                    assertEquals(200, status(i, "/health/ready"));
                    assertEquals("RUNNING", get(i, "/health/ready").get("state").asText());
                    JsonNode health = get(i, "/health");
                    assertTrue(health.get("live").asBoolean() && health.get("ready").asBoolean(), health.toString());
                    JsonNode replication = health.get("replication");
                    assertTrue(replication.get("activeTasks").asInt() > 0, health.toString());
                    assertEquals(0, replication.get("standbyTasks").asInt(), "no standby configured: " + health);
                    assertTrue(replication.get("maxStoreLag").canConvertToLong(), health.toString());
                    assertEquals("classic", health.at("/group/protocol").asText(), "the broker's group: " + health);
                    assertEquals(2, health.at("/group/members").asInt(), "one stream thread each: " + health);
                    assertEquals(0, health.at("/group/standbyReplicas").asInt(), health.toString());
                    assertFalse(get(i, "/health/ready").has("replication"), "the probes ask no broker");
                    assertEquals(404, status(i, "/factors/no-such-node"));
                    assertEquals(404, status(i, "/nowhere"));
                    assertEquals(400, status(i, "/convert?node=" + cluster.nodes.get(0) + "&t=soon"));
                }
                assertEquals(get(a, "/links").toString(), get(b, "/links").toString(), "same links everywhere");
                JsonNode link = get(b, "/links/" + cluster.nodes.get(1) + "/" + cluster.nodes.get(0));
                assertEquals(get(a, "/links/" + cluster.nodes.get(0) + "/" + cluster.nodes.get(1)), link,
                        "a link named in either order");
                assertEquals(405, http.send(HttpRequest.newBuilder(a.uri("/factors"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode());

                checkTruth(b, expected, truth);
                checkMetrics(a, b);
                checkOpenApiPaths(b, cluster);
                checkLiveView(b, expected);
            }
        }
    }

    private void checkFactors(Instance i, Map<String, NodeFactor> expected) throws Exception {
        JsonNode all = get(i, "/factors").get("factors");
        Set<String> nodes = new TreeSet<>();
        for (JsonNode f : all) {
            String node = f.get("node").asText();
            nodes.add(node);
            NodeFactor e = expected.get(node);
            assertEquals(e.reference(), f.get("reference").asText(), node);
            assertEquals(e.factor().toReference().slope().toDecimalString(), f.get("map").get("slope").asText(), node);
            assertEquals(e.factor().toReference().offset().toDecimalString(), f.get("map").get("offset").asText(),
                    node);
            assertEquals(e.factor().upPs(), f.get("up_ps").asLong(), node);
            assertEquals(f, get(i, "/factors/" + node), "one node's factor as in the list");
        }
        assertEquals(expected.keySet(), nodes);
    }

    /**
     * /convert answers as the committed history and latest factors read by a consumer do: at the latest factor's
     * anchor exactly its conversion; halfway between its two newest versions of one reference, with both (when the
     * application published more than one: it may have read every event before its first emission).
     */
    private void checkConversion(Instance i, Map<String, NodeFactor> expected,
            Map<String, NodeHistory> histories, String node) throws Exception {
        FactorVersion[] versions = histories.get(node).versions();
        int k = versions.length - 1;
        while (k > 1 && !versions[k - 1].reference().equals(versions[k].reference())) {
            k--;
        }
        long t = versions[Math.max(0, k - 1)].anchorNs() / 2 + versions[k].anchorNs() / 2;
        HistoricConversion h = histories.get(node).convert(t);
        JsonNode got = get(i, "/convert?node=" + node + "&t=" + t);
        assertEquals(h.referenceNs().setScale(3, RoundingMode.HALF_EVEN).toPlainString(),
                got.get("reference_ns").asText(), got.toString());
        assertEquals(h.lowerNs(), got.get("lower_ns").asLong());
        assertEquals(h.upperNs(), got.get("upper_ns").asLong());
        assertEquals(h.version().number(), got.get("version").asLong(), got + " vs " + h);
        assertEquals(h.basis().name().toLowerCase(Locale.ROOT), got.get("basis").asText());
        // a node may have been its own reference at t, and another one's at the end
        boolean reference = node.equals(h.version().reference());
        assertTrue(reference ? h.lowerNs() == t && h.upperNs() == t
                : h.lowerNs() < h.upperNs() && h.lowerNs() <= h.nearestNs() && h.nearestNs() <= h.upperNs(),
                got.toString());
        assertEquals(h.version().reference(), got.get("reference").asText());
        assertEquals(h.next() == null ? "null" : Long.toString(h.next().number()), got.get("next_version").asText());
        if (!node.equals(expected.get(node).reference())) {
            assertTrue(got.get("from_data_ns").asLong() <= Math.abs(t - got.get("anchor_ns").asLong()));
            long anchor = expected.get(node).factor().anchorNs();
            Conversion c = Conversion.of(expected.get(node).factor(), anchor);
            JsonNode latest = get(i, "/convert?node=" + node + "&t=" + anchor);
            assertEquals(c.lowerNs(), latest.get("lower_ns").asLong(), "the latest factor at its anchor");
            assertEquals(c.upperNs(), latest.get("upper_ns").asLong());
            assertEquals(anchor, latest.get("anchor_ns").asLong());
            assertEquals(0, latest.get("from_anchor_ns").asLong());
            assertEquals(1.0, latest.get("bound_growth").asDouble(), latest.toString());
            assertTrue(latest.path("note").isMissingNode(), "no note at the anchor: " + latest);
            JsonNode far = get(i, "/convert?node=" + node + "&t=" + (anchor + 3_600_000_000_000L));
            assertTrue(far.get("bound_growth").asDouble() > 2, far.toString());
            assertTrue(far.get("note").asText().startsWith("t lies 3600 s after anchor_ns, past the data of this "
                    + "version: the bound grew from "), far.toString());
            assertFalse(far.get("truncated").asBoolean(), far.toString());
        }
        // the stream's own policy on timestamps: 0 to 2^62 ns
        assertEquals(400, status(i, "/convert?node=" + node + "&t=-1"));
        assertEquals(400, status(i, "/convert?node=" + node + "&t=" + (1L << 62)));

    }

    /** Every node's versions as a consumer of the history and the latest factors holds them. */
    private static Map<String, NodeHistory> histories(Settings settings) {
        Topics topics = new Topics(settings);
        Map<String, NodeHistory> out = new TreeMap<>();
        for (String topic : List.of(topics.factorHistory, topics.factors)) {
            FactorsTopic.readAll(settings, topic, WAIT).forEach(r -> out.computeIfAbsent(r.key(),
                    k -> new NodeHistory(1_000_000)).add(FactorHistoryStore.version(r.value())));
        }
        return out;
    }

    /**
     * Where the truth is known, the factors and conversions say where the true time lies: every factor's true
     * error at its anchor within its bounds, a conversion's true time in its interval and its error the difference;
     * outside the simulated run (but for a reference, whose own reading is its truth) nothing is added.
     */
    private void checkTruth(Instance b, Map<String, NodeFactor> expected, KnownTruth truth) throws Exception {
        for (JsonNode f : get(b, "/factors").get("factors")) {
            String node = f.get("node").asText();
            double error = f.get("true_error_ns").asDouble();
            assertTrue(error * 1000 <= f.get("down_ps").asLong() + 1 && -error * 1000 <= f.get("up_ps").asLong() + 1,
                    "the true error at the anchor within the bounds: " + f);
            assertEquals(f, get(b, "/factors/" + node), "one node's factor as in the list");
            long anchor = expected.get(node).factor().anchorNs();
            JsonNode c = get(b, "/convert?node=" + node + "&t=" + anchor);
            long trueNs = truth.referenceAt(node, f.get("reference").asText(), anchor).orElseThrow();
            assertEquals(trueNs, c.get("true_reference_ns").asLong(), c.toString());
            assertEquals(0, new BigDecimal(c.get("reference_ns").asText()).subtract(BigDecimal.valueOf(trueNs))
                    .compareTo(BigDecimal.valueOf(c.get("true_error_ns").asDouble())), c.toString());
            assertTrue(c.get("inside").asBoolean(), c.toString());
            // the second guarantee (the simulated clocks drift by at most 100 ppm)
            assertTrue(c.get("datasheet_inside").asBoolean(), c.toString());
            assertTrue(f.has("datasheet") && !f.get("datasheet").isNull(), f.toString());
            JsonNode before = get(b, "/convert?node=" + node + "&t=1");
            assertEquals(node.equals(before.get("reference").asText()), before.has("true_error_ns"),
                    "no truth before the simulated run, but a reference's own reading: " + before);
        }
    }

    private void checkTree(Instance i, Map<String, NodeFactor> expected) throws Exception {
        JsonNode tree = get(i, "/tree");
        Set<String> references = new TreeSet<>();
        expected.values().forEach(f -> references.add(f.reference()));
        Set<String> got = new TreeSet<>();
        tree.get("components").forEach(c -> got.add(c.get("reference").asText()));
        assertEquals(references, got);
        assertEquals(expected.size() - references.size(), tree.get("edges").size(), "a spanning forest's links");
    }

    private void checkMetrics(Instance a, Instance b) throws Exception {
        String ma = body(a, "/metrics");
        String mb = body(b, "/metrics");
        for (String m : new String[] {ma, mb}) {
            assertTrue(m.contains("tracesync_events_total"), m);
            assertTrue(m.contains("kafka_stream_thread_"), "Kafka Streams' own metrics");
            assertTrue(m.contains("tracesync_streams_state{state=\"RUNNING\"} 1"), m);
        }
        for (String name : documentedMetrics()) {
            assertTrue(ma.lines().anyMatch(l -> l.startsWith(name + " ") || l.startsWith(name + "{")),
                    name + " (docs/OPERATIONS.md) is not served");
        }
        // only the instance running the network task counts its links
        String accurate = "tracesync_network_links{quality=\"ACCURATE\"} ";
        double sum = value(ma, accurate) + value(mb, accurate);
        assertTrue(sum > 0, "ACCURATE links counted");
        assertTrue(value(ma, accurate) == 0 || value(mb, accurate) == 0, "counted by one instance only");
    }

    /** The metric names docs/OPERATIONS.md lists in its table of tracesync's metrics. */
    private static Set<String> documentedMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("`(tracesync_[a-z_]+)[^`]*`").matcher(
                Files.readString(Path.of("..", "docs", "OPERATIONS.md")));
        while (m.find()) {
            names.add(m.group(1));
        }
        assertTrue(names.size() >= 15, "the table was read: " + names);
        return names;
    }

    private static double value(String metrics, String prefix) {
        return metrics.lines().filter(l -> l.startsWith(prefix)).mapToDouble(l -> Double.parseDouble(
                l.substring(prefix.length()).trim())).sum();
    }

    /** Every path of the OpenAPI description is served (parameters filled in with real names). */
    private void checkOpenApiPaths(Instance i, SimulatedTraces cluster) throws Exception {
        JsonNode api = get(i, "/openapi.json");
        for (Iterator<String> it = api.get("paths").fieldNames(); it.hasNext(); ) {
            String path = it.next();
            String real = path.replace("{node}", cluster.nodes.get(0)).replace("{a}", cluster.nodes.get(0))
                    .replace("{b}", cluster.nodes.get(1)) + (path.equals("/convert")
                    ? "?node=" + cluster.nodes.get(0) + "&t=1700000000000000000" : "");
            assertEquals(200, status(i, real), real);
        }
        assertTrue(body(i, "/").contains("<svg"), "the live view");
    }

    /**
     * The live view as a person sees it in a browser: every node drawn and listed, the reference nodes marked and
     * named; no two links cross, no two nodes overlap; the screenshot shows the forest (pixels of the reference and
     * link colours) and is kept in target/ to look at.
     */
    private void checkLiveView(Instance i, Map<String, NodeFactor> expected) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        String dom = chromium.dom(i.uri("/").toString(), 5000);
        long references = expected.values().stream().map(NodeFactor::reference).distinct().count();
        assertEquals(expected.size(), count(dom, "<circle"), "one circle per node: " + dom);
        assertEquals(expected.size() - references, count(dom, "<line"), "one line per tree link");
        assertEquals(references, count(dom, "r=\"9\""), "reference nodes drawn larger");
        assertTrue(dom.contains(expected.size() + " nodes, " + references
                + (references == 1 ? " component, " : " components, ")), dom);
        assertEquals(expected.size() + 1, count(dom, "<title>"), "the page's title and each node's tooltip");
        assertEquals(references, count(dom, "font-weight=\"bold\""), "each reference named");
        List<double[]> links = shapes(dom, "line", "x1", "y1", "x2", "y2");
        assertEquals(List.of(), Segments.crossings(links), "crossing links in " + dom);
        List<double[]> nodes = shapes(dom, "circle", "cx", "cy", "r");
        for (int a = 0; a < nodes.size(); a++) {
            for (int b = a + 1; b < nodes.size(); b++) {
                double[] p = nodes.get(a);
                double[] q = nodes.get(b);
                assertTrue(Math.hypot(p[0] - q[0], p[1] - q[1]) >= p[2] + q[2], "overlapping nodes in " + dom);
            }
        }
        // the links table: one row per link of the network task, with its quality
        String linksTable = dom.substring(dom.indexOf("<table id=\"links\">"));
        linksTable = linksTable.substring(0, linksTable.indexOf("</table>"));
        assertEquals(count(i, "/links", "links"), count(linksTable, "<tr") - 1, "a row per link: " + linksTable);
        assertTrue(linksTable.contains("<td>ACCURATE</td>"), linksTable);
        // the nodes table: a row per node, each with the course of its bound and, the truth known here, of its error
        assertEquals(expected.size(), count(dom, "<svg class=\"spark\""), "a sparkline per node");
        assertTrue(dom.contains("<table id=\"nodes\" class=\"known\">"), "the true error column shown: " + dom);
        assertEquals(expected.size(), count(dom, "<polyline class=\"error\""), "an error line per node: " + dom);
        // the conversion form, filled from the address as a shared link would fill it
        String node = expected.keySet().stream().filter(n -> !n.equals(expected.get(n).reference())).findFirst()
                .orElseThrow();
        long t = expected.get(node).factor().anchorNs();
        JsonNode api = get(i, "/convert?node=" + node + "&t=" + t);
        String form = chromium.dom(i.uri("/?node=" + node + "&t=" + t).toString(), 5000);
        assertTrue(form.contains(node + " at " + t + " → " + api.get("reference_ns").asText() + " ns on "
                + api.get("reference").asText() + "'s clock, truly in [" + api.get("lower_ns").asLong() + ", "
                + api.get("upper_ns").asLong() + "]"), "the form's answer is /convert's: " + form);
        assertTrue(form.contains("True time " + api.get("true_reference_ns").asLong() + " ns: error ")
                && form.contains("inside the interval."), "and where the true time lies: " + form);
        // at 1400×900, without scrolling: the forest, the conversion form and the links table
        Path png = chromium.screenshot(i.uri("/").toString(), Path.of("target", "live-view.png"), 1400, 900, 5000);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1400, image.getWidth());
        assertTrue(HeadlessChromium.pixels(image, 0xd9822b) > 50, "reference nodes visible in " + png.toAbsolutePath());
        assertTrue(HeadlessChromium.pixels(image, 0x4a78b5) > 50, "tree links visible in " + png.toAbsolutePath());
        assertTrue(HeadlessChromium.pixels(image, 0xeef4ea) > 20_000, "the conversion form visible in "
                + png.toAbsolutePath());
        assertTrue(HeadlessChromium.pixels(image, 0xe8eef7) > 2_000, "the links table's header visible in "
                + png.toAbsolutePath());
        assertTrue(HeadlessChromium.pixels(image, 0xc0392b) > 100, "the true errors' lines visible in "
                + png.toAbsolutePath());
    }

    /** The given attributes of every element of one name, in the order of the DOM (absolute coordinates). */
    private static List<double[]> shapes(String dom, String element, String... attributes) {
        List<double[]> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + element + " ([^>]*)>").matcher(dom);
        while (m.find()) {
            double[] values = new double[attributes.length];
            for (int k = 0; k < attributes.length; k++) {
                Matcher v = Pattern.compile("\\b" + attributes[k] + "=\"([^\"]*)\"").matcher(m.group(1));
                assertTrue(v.find(), attributes[k] + " of " + m.group());
                values[k] = Double.parseDouble(v.group(1));
            }
            out.add(values);
        }
        return out;
    }

    private static long count(String text, String what) {
        return Pattern.compile(Pattern.quote(what)).matcher(text).results().count();
    }

    private int status(Instance i, String path) {
        try {
            return http.send(HttpRequest.newBuilder(i.uri(path)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(path, e);
        }
    }

    private int count(Instance i, String path, String field) {
        try {
            return get(i, path).get(field).size();
        } catch (Exception e) {
            throw new AssertionError(path, e);
        }
    }

    private JsonNode get(Instance i, String path) throws Exception {
        JsonNode answer = JSON.readTree(body(i, path));
        assertExactInADouble(answer, path);
        return answer;
    }

    /**
     * No number of an answer loses a digit where a client reads numbers as doubles (JavaScript, jq): the timestamps
     * (about 1.7e18 ns here) and every other 64-bit integer come as strings.
     */
    private static void assertExactInADouble(JsonNode json, String where) {
        if (json.isIntegralNumber()) {
            assertTrue(Math.abs(json.asLong()) <= 1L << 53, where + ": " + json + " as a JSON number");
        }
        json.forEach(child -> assertExactInADouble(child, where));
    }

    private String body(Instance i, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(i.uri(path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertNotEquals(500, r.statusCode(), r.body());
        return r.body();
    }

    /** One application instance with its HTTP side, its address given to Kafka Streams as application.server. */
    private static final class Instance implements AutoCloseable {
        final TracesyncApp app;
        final AppMetrics metrics;
        final OperationsServer server;
        final int port;

        Instance(Settings settings, Path state, KnownTruth truth) throws Exception {
            port = freePort();
            Settings s = settings.with("state.dir", state.toString())
                    .with("application.server", "127.0.0.1:" + port)
                    .with("http.port", Integer.toString(port));
            app = TracesyncApp.start(s);
            metrics = new AppMetrics(app.streams(), app.stats());
            server = OperationsServer.start(s, app.streams(), metrics, truth);
        }

        boolean running() {
            return app.streams().state() == KafkaStreams.State.RUNNING;
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        private static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            }
        }

        @Override
        public void close() {
            server.close();
            metrics.close();
            app.close();
        }
    }
}
