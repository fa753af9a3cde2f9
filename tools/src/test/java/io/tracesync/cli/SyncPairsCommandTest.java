package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.console.DurationConverter;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.files.PairsCsv;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncPairsCommandTest {

    @TempDir
    Path dir;

    private Path csv(String content) throws IOException {
        Path p = dir.resolve("pairs.csv");
        Files.writeString(p, content);
        return p;
    }

    @Test
    void twoNodeJsonFollowsTheContract() throws IOException {
        // b = a + 1000 exactly, delays 10..20 ns: b's map to the reference a is t - 1000 within the delays.
        Path p = csv("sender,send_ns,receiver,recv_ns,extra\n"
                + "n1,0,n2,1010,x\n"
                + "n2,1100,n1,115,y\n"
                + "n1,200,n2,1220\n"
                + "n2,1300,n1,312\n"
                + "n1,400,n2,1411\n");
        CliRun r = CliRun.of("sync-pairs", "--pairs", p.toString(), "--json", "--at", "0", "--at", "400", "--horizon", "none");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode link = root.get("links").get(0);
        assertEquals("n1", link.get("a").asText());
        assertEquals("n2", link.get("b").asText());
        assertEquals(5, link.get("pairs").asInt());
        assertEquals("ACCURATE", link.get("quality").asText());
        assertTrue(link.get("hull_points").asInt() >= 2);
        assertTrue(link.get("observed_step_ppb").isNull(), "linear clocks (no horizon): no epochs, no step");
        for (String f : new String[] {"slope_min", "intercept_min", "slope_max", "intercept_max", "slope",
                "intercept", "slope_accuracy"}) {
            assertTrue(link.get(f).isTextual(), f);
            new BigDecimal(link.get(f).asText());
        }
        assertEquals(2, link.get("bounds").size());
        assertEquals("400", link.get("bounds").get(1).get("t").asText(), "a 64-bit integer as its digits");
        assertTrue(link.get("bounds").get(1).get("up_ns").isNumber());
        assertEquals("n1", root.get("reference").asText());
        JsonNode n2 = root.get("nodes").get(1);
        assertEquals("n2", n2.get("node").asText());
        BigDecimal slope = new BigDecimal(n2.get("slope").asText());
        BigDecimal offset = new BigDecimal(n2.get("offset").asText());
        BigDecimal bound = n2.get("bound_ns").decimalValue();
        // t_n1 of n2's 1411 is 401 +- the bound, and truth 1411 - 1000 - delay lies in [391, 401].
        BigDecimal conv = slope.multiply(BigDecimal.valueOf(1411)).add(offset);
        assertTrue(conv.subtract(BigDecimal.valueOf(401)).abs().compareTo(bound.add(BigDecimal.TEN)) <= 0,
                conv + " +- " + bound);
        assertEquals("n1", n2.get("component").asText());
        assertTrue(n2.get("up_ns").isNumber() && n2.get("down_ns").isNumber(), n2.toString());
        assertEquals(bound, n2.get("up_ns").decimalValue().max(n2.get("down_ns").decimalValue()));
        assertEquals("[{\"reference\":\"n1\",\"nodes\":2}]", root.get("components").toString());
        JsonNode edge = root.get("tree").get(0);
        assertEquals(1, root.get("tree").size());
        assertEquals("n1", edge.get("a").asText());
        assertEquals("n2", edge.get("b").asText());
        assertTrue(edge.get("weight").isNumber(), edge.toString());
    }

    /**
     * Four nodes with equal clocks, 10-20 µs delays, every pair of them linked: every node's factor holds at a
     * stated local time with its growth, from every link by default and along the tree with --network tree, never
     * wider than the tree's; a link on which n3's timestamps are 1 ms late contradicts the other paths, stands out
     * against them (in a triangle alone no link would), is left out and reported, and the bounds still hold the
     * truth (equal clocks).
     */
    @Test
    void nodeFactorsHoldAtAStatedTimeFromEveryLinkAndAContradictingLinkIsLeftOut() throws IOException {
        Random r = new Random(3);
        StringBuilder sb = new StringBuilder("sender,send_ns,receiver,recv_ns\n");
        String[][] links = {{"n1", "n2"}, {"n1", "n3"}, {"n2", "n3"}, {"n1", "n4"}, {"n2", "n4"}, {"n3", "n4"}};
        long base = 1_700_000_000_000_000_000L;
        for (int k = 0; k < 200; k++) {
            for (String[] l : links) {
                long t = base + k * 10_000_000L + r.nextInt(1_000_000);
                long late = l[1].equals("n3") && l[0].equals("n2") ? 1_000_000 : 0;
                boolean forward = r.nextBoolean();
                long delay = 10_000 + r.nextInt(10_000);
                sb.append(forward ? l[0] + "," + t + "," + l[1] + "," + (t + delay + late)
                        : l[1] + "," + (t + late) + "," + l[0] + "," + (t + delay)).append("\n");
            }
        }
        Path p = csv(sb.toString());
        CliRun all = CliRun.of("sync-pairs", "--pairs", p.toString(), "--json", "--curvature", "0");
        assertEquals(0, all.exit(), all.err());
        assertTrue(all.err().contains("warning: link n2~n3 contradicts the other paths"), all.err());
        JsonNode root = new ObjectMapper().readTree(all.out());
        assertEquals("[{\"a\":\"n2\",\"b\":\"n3\"}]", root.get("excluded_links").toString());
        for (JsonNode n : root.get("nodes")) {
            assertEquals("all-links", n.get("method").asText());
            assertTrue(n.get("anchor_ns").isTextual() && n.get("evaluated_at_ns").isTextual(),
                    "64-bit integers as strings, exact where a reader parses numbers as doubles: " + n);
            long anchor = n.get("anchor_ns").asLong();
            assertTrue(Math.abs(anchor - base - 2_000_000_000L) < 20_000_000L, n.toString());
            BigDecimal up = n.get("up_ns").decimalValue();
            BigDecimal down = n.get("down_ns").decimalValue();
            // a tree path through the left-out link has no guaranteed interval: null
            assertTrue(n.get("tree_up_ns").isNull() || up.compareTo(n.get("tree_up_ns").decimalValue()) <= 0
                    && down.compareTo(n.get("tree_down_ns").decimalValue()) <= 0, n.toString());
            BigDecimal growUp = n.get("growth_up_ns_per_s").decimalValue();
            BigDecimal growDown = n.get("growth_down_ns_per_s").decimalValue();
            // the truth at local t is t itself (equal clocks); check it at the anchor and 10 s later
            for (long dt : new long[] {0, 10_000_000_000L}) {
                long t = anchor + dt;
                BigDecimal estimate = new BigDecimal(n.get("slope").asText()).multiply(BigDecimal.valueOf(t))
                        .add(new BigDecimal(n.get("offset").asText()));
                BigDecimal seconds = BigDecimal.valueOf(dt / 1e9);
                BigDecimal error = estimate.subtract(BigDecimal.valueOf(t));
                assertTrue(error.compareTo(down.add(growDown.multiply(seconds))) <= 0
                        && error.negate().compareTo(up.add(growUp.multiply(seconds))) <= 0,
                        n + " at +" + dt + ": error " + error);
            }
        }
        CliRun tree = CliRun.of("sync-pairs", "--pairs", p.toString(), "--json", "--network", "tree");
        assertEquals(0, tree.exit(), tree.err());
        JsonNode t = new ObjectMapper().readTree(tree.out());
        assertEquals("[]", t.get("excluded_links").toString());
        for (JsonNode n : t.get("nodes")) {
            assertEquals("tree", n.get("method").asText());
            assertEquals(n.get("up_ns").decimalValue(), n.get("tree_up_ns").decimalValue());
        }
        CliRun text = CliRun.of("sync-pairs", "--pairs", p.toString());
        assertTrue(text.out().contains("from every link"), text.out());
        assertTrue(text.out().contains("grows"), text.out());
    }

    @Test
    void sampleFileRecoversTheKnownDrift() {
        Path sample = Path.of("..", "examples", "two-nodes.csv");
        CliRun r = CliRun.of("sync-pairs", "--pairs", sample.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"quality\" : \"ACCURATE\""), r.out());
        // without known minimum delays no link keeps a straight window
        assertTrue(r.out().contains("\"straight_fit\" : false"), r.out());
        CliRun text = CliRun.of("sync-pairs", "--pairs", sample.toString());
        assertTrue(text.out().contains("reference clock alpha"), text.out());
    }

    @Test
    void badLinesAreReportedWithTheirLineNumber() throws IOException {
        assertBad("n1,0,n2,10\nn1,5,n2\n", "pairs.csv:2: expected sender,send_ns,receiver,recv_ns");
        assertBad("n1,0,n2,10\n\nn1,x,n2,3\n", "pairs.csv:3: send_ns is not an integer");
        assertBad("n1,0,n1,10\n", "pairs.csv:1: node n1 sends to itself");
        assertBad("n1,0,n2,99999999999999999999\n", "pairs.csv:1: recv_ns is not an integer");
        assertBad("n1,0,,10\n", "pairs.csv:1: empty node id");
        assertBad("n1,-1,n2,10\n", "pairs.csv:1: send_ns -1 is negative: timestamps are 0 to 2^62 ns, as the "
                + "stream accepts them");
        assertBad("n1,0,n2,4611686018427387904\n", "pairs.csv:1: recv_ns 4611686018427387904 is 2^62 ns or more");
    }

    @Test
    void inputWithoutPairsOrThatIsNoFileIsAnError() throws IOException {
        assertBad("", "pairs.csv holds no pairs");
        assertBad("sender,send_ns,receiver,recv_ns\n", "pairs.csv holds no pairs");
        CliRun directory = CliRun.of("sync-pairs", "--pairs", dir.toString());
        assertEquals(2, directory.exit());
        assertTrue(directory.err().startsWith("error: cannot read " + dir + ": a directory, not a pairs file"),
                directory.err());
    }

    private void assertBad(String content, String expected) throws IOException {
        CliRun r = CliRun.of("sync-pairs", "--pairs", csv(content).toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void unknownReferenceAndMissingFileAreErrors() throws IOException {
        CliRun r = CliRun.of("sync-pairs", "--pairs", csv("n1,0,n2,10\n").toString(), "--reference", "zz");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("reference node zz does not occur"), r.err());
        CliRun missing = CliRun.of("sync-pairs", "--pairs", dir.resolve("nope.csv").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("cannot read"), missing.err());
    }

    @Test
    void oneDirectionOnlyLeavesEachNodeItsOwnComponentAndSaysWhy() throws IOException {
        CliRun r = CliRun.of("sync-pairs", "--pairs", csv("a,0,b,10\na,20,b,35\n").toString(), "--json");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("\"quality\" : \"INCOMPLETE\""));
        assertTrue(r.err().contains("node a has no ACCURATE link: it is its own component"), r.err());
        assertTrue(r.err().contains("node b has no ACCURATE link: it is its own component"), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertEquals("a", root.get("reference").asText());
        assertEquals(0, root.get("tree").size());
        assertEquals("b", root.get("nodes").get(1).get("component").asText());
    }

    @Test
    void anInfeasiblePairMakesTheLinkFailUntilItHasAnEstimateAgain() throws IOException {
        // Trace Compass's SyncTest (t1 = a, t2 = b): the last pair leaves no compatible line — for linear clocks; the
        // default clock model's allowance, rounded up to 1 ns, leaves room for one.
        String syncTest = "t2,1,t1,1\nt1,1,t2,3\nt2,2,t1,3\nt1,3,t2,5\nt1,4,t2,8\nt2,4,t1,5\nt2,4,t1,6\n"
                + "t1,6,t2,7\nt1,7,t2,4\n";
        assertNotEquals("FAIL", syncJson(syncTest).get("links").get(0).get("quality").asText());
        JsonNode link = syncJson(syncTest, "--curvature", "0").get("links").get(0);
        assertEquals("FAIL", link.get("quality").asText());
        assertEquals(9, link.get("pairs").asInt());
        assertEquals(1, link.get("failures").asInt());
        assertTrue(link.get("slope").isNull(), link.toString());
        assertEquals(0, link.get("bounds").size());
        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString(), "--curvature", "0");
        assertTrue(text.out().lines().anyMatch(l -> l.matches("t1~t2 +FAIL \\(1 failure\\) .*")), text.out());

        // both directions again after the failure: the new answering epoch has its own estimate
        link = syncJson(syncTest + "t1,8,t2,20\nt2,20,t1,10\n", "--curvature", "0").get("links").get(0);
        assertEquals("APPROXIMATE", link.get("quality").asText());
        assertEquals(1, link.get("failures").asInt());
        assertTrue(link.get("slope").isTextual(), link.toString());
    }

    @Test
    void aCorridorWithoutAnIncreasingEstimateHasOneQualityEverywhere() throws IOException {
        // bounded on both sides by lines of slopes -2 and 0.02: their bisector falls
        String pairs = "a,0,b,100\na,100,b,1\nb,0,a,50\n";
        JsonNode link = syncJson(pairs).get("links").get(0);
        assertTrue(link.get("slope_min").isTextual() && link.get("slope_max").isTextual(), link.toString());
        assertTrue(link.get("slope").isNull(), link.toString());
        ConvexHullLink core = new ConvexHullLink(LinkOptions.DEFAULT);
        PairsCsv.read(new BufferedReader(new StringReader(pairs)), "pairs", p -> p.applyTo(core));
        assertEquals(LinkQuality.INCOMPLETE, core.quality());
        assertEquals(LinkQuality.INCOMPLETE, LinkEstimate.of(LinkKey.between("a", "b"), core).quality());
        assertEquals("INCOMPLETE", link.get("quality").asText());
        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("a~b +INCOMPLETE .*")), text.out());
    }

    // ---- networks of synthetic pairs between nodes with known linear clocks ----

    private static final MathContext MC = new MathContext(50);
    private static final long END_NS = 61_000_000_000L;

    /** A node's clock as a function of true time T (ns): offset + rate * T. */
    record Clock(BigDecimal offset, BigDecimal rate) {
        static Clock of(String offset, String ppm) {
            return new Clock(new BigDecimal(offset), BigDecimal.ONE.add(new BigDecimal(ppm).movePointLeft(6)));
        }

        long at(BigDecimal t) {
            return offset.add(rate.multiply(t)).setScale(0, RoundingMode.FLOOR).longValueExact();
        }

        BigDecimal trueTime(BigDecimal local) {
            return local.subtract(offset).divide(rate, MC);
        }
    }

    static final Map<String, Clock> CLOCKS = Map.of(
            "a", Clock.of("1700000000000000000", "25"),
            "b", Clock.of("1700003600123456789", "-17"),
            "c", Clock.of("1699999000000000000", "40"),
            "d", Clock.of("1700000100000000000", "3"));

    /**
     * Pairs over the minute up to {@link #END_NS} at 100/s on every link, either way, one-way delay 50 us + up to
     * 200 us; the last one of each link sent within 1 ms of the end.
     */
    private static String pairs(long seed, String... links) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("sender,send_ns,receiver,recv_ns\n");
        for (String link : links) {
            String[] ends = link.split("~");
            for (long t = END_NS - 59_990_000_000L; t <= END_NS; t += 10_000_000) {
                boolean forward = r.nextBoolean();
                String from = forward ? ends[0] : ends[1];
                String to = forward ? ends[1] : ends[0];
                BigDecimal send = BigDecimal.valueOf(t - r.nextInt(1_000_000));
                BigDecimal recv = send.add(BigDecimal.valueOf(50_000 + r.nextInt(200_000)));
                sb.append(from).append(',').append(CLOCKS.get(from).at(send)).append(',')
                        .append(to).append(',').append(CLOCKS.get(to).at(recv)).append('\n');
            }
        }
        return sb.toString();
    }

    private JsonNode syncJson(String content, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("sync-pairs", "--pairs", csv(content).toString(), "--json"));
        args.addAll(List.of(options));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static JsonNode node(JsonNode root, String name) {
        for (JsonNode n : root.get("nodes")) {
            if (n.get("node").asText().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name + " in " + root.get("nodes"));
    }

    /**
     * The reported factor of every node, applied at its local time of the end of the trace, gives the true time
     * of its component's reference within [-down_ns, +up_ns] (plus 1 ns: the bounds hold at each link's latest
     * time, at most 1.25 ms earlier); bound_ns is the larger side, and not vacuous.
     */
    private static void assertTruthWithinBounds(JsonNode root) {
        BigDecimal end = BigDecimal.valueOf(END_NS);
        for (JsonNode n : root.get("nodes")) {
            Clock own = CLOCKS.get(n.get("node").asText());
            Clock ref = CLOCKS.get(n.get("component").asText());
            long local = own.at(end);
            BigDecimal truth = ref.offset().add(ref.rate().multiply(own.trueTime(BigDecimal.valueOf(local))));
            BigDecimal conv = new BigDecimal(n.get("slope").asText()).multiply(BigDecimal.valueOf(local))
                    .add(new BigDecimal(n.get("offset").asText()));
            BigDecimal up = n.get("up_ns").decimalValue();
            BigDecimal down = n.get("down_ns").decimalValue();
            // truth in [conv - down, conv + up], 1 ns of slack
            BigDecimal error = truth.subtract(conv);
            assertTrue(error.compareTo(up.add(BigDecimal.ONE)) <= 0, n + ": error " + error);
            assertTrue(error.negate().compareTo(down.add(BigDecimal.ONE)) <= 0, n + ": error " + error);
            BigDecimal bound = n.get("bound_ns").decimalValue();
            assertEquals(bound, up.max(down), n.toString());
            assertTrue(bound.compareTo(BigDecimal.valueOf(500_000)) < 0, n + ": bound " + bound);
        }
    }

    @Test
    void chainOfThreeNodesHasTheMiddleOneAsReference() throws IOException {
        JsonNode root = syncJson(pairs(1, "a~b", "b~c"), "--horizon", "none", "--min-delay", "50000");
        assertEquals("b", root.get("reference").asText());
        assertEquals("[{\"reference\":\"b\",\"nodes\":3}]", root.get("components").toString());
        assertEquals(3, root.get("nodes").size());
        for (String name : new String[] {"a", "b", "c"}) {
            JsonNode n = node(root, name);
            assertEquals("b", n.get("component").asText(), n.toString());
        }
        JsonNode b = node(root, "b");
        assertEquals("1", b.get("slope").asText());
        assertEquals("0", b.get("offset").asText());
        assertEquals(0, b.get("bound_ns").decimalValue().signum());
        assertTruthWithinBounds(root);

        JsonNode tree = root.get("tree");
        assertEquals(2, tree.size());
        assertEquals("a", tree.get(0).get("a").asText());
        assertEquals("b", tree.get(0).get("b").asText());
        assertEquals("b", tree.get(1).get("a").asText());
        assertEquals("c", tree.get(1).get("b").asText());
        for (int i = 0; i < 2; i++) {
            // slope-accuracy weights: the link's alpha_max - alpha_min
            double accuracy = new BigDecimal(root.get("links").get(i).get("slope_accuracy").asText()).doubleValue();
            double weight = tree.get(i).get("weight").asDouble();
            assertTrue(tree.get(i).get("weight").isNumber());
            assertEquals(accuracy, weight, accuracy * 1e-12);
        }

        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString(), "--horizon", "none");
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().contains("component b (3 nodes), reference clock b"), text.out());
        assertTrue(text.out().contains("weight (slope-accuracy)"), text.out());
        assertTrue(text.out().contains("b~c "), text.out());
        assertEquals("", text.err());
    }

    @Test
    void separateComponentsHaveTheirOwnReferences() throws IOException {
        JsonNode root = syncJson(pairs(2, "a~b", "c~d"));
        assertEquals("a", root.get("reference").asText());
        assertEquals("[{\"reference\":\"a\",\"nodes\":2},{\"reference\":\"c\",\"nodes\":2}]",
                root.get("components").toString());
        assertEquals(List.of("a", "a", "c", "c"), List.of(node(root, "a"), node(root, "b"), node(root, "c"),
                node(root, "d")).stream().map(n -> n.get("component").asText()).toList());
        assertEquals("a", root.get("nodes").get(0).get("node").asText());
        assertEquals("d", root.get("nodes").get(3).get("node").asText());
        assertEquals(0, node(root, "c").get("bound_ns").decimalValue().signum());
        assertTruthWithinBounds(root);
        assertEquals(2, root.get("tree").size());
        assertEquals("c", root.get("tree").get(1).get("a").asText());
        assertEquals("d", root.get("tree").get(1).get("b").asText());

        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString());
        assertTrue(text.out().contains("component a (2 nodes), reference clock a"), text.out());
        assertTrue(text.out().contains("component c (2 nodes), reference clock c"), text.out());
        assertTrue(text.out().indexOf("component a") < text.out().indexOf("component c"), text.out());
    }

    @Test
    void pinnedReferenceReplacesTheDefault() throws IOException {
        JsonNode root = syncJson(pairs(3, "a~b", "b~c"), "--reference", "c", "--horizon", "none", "--min-delay",
                "50000");
        assertEquals("c", root.get("reference").asText());
        assertEquals("[{\"reference\":\"c\",\"nodes\":3}]", root.get("components").toString());
        JsonNode c = node(root, "c");
        assertEquals("1", c.get("slope").asText());
        assertEquals("0", c.get("offset").asText());
        for (String name : new String[] {"a", "b"}) {
            assertEquals("c", node(root, name).get("component").asText());
        }
        // a reaches c over two links: its bound is the composition, wider than b's
        assertTrue(node(root, "a").get("bound_ns").decimalValue()
                .compareTo(node(root, "b").get("bound_ns").decimalValue()) > 0, root.get("nodes").toString());
        assertTruthWithinBounds(root);
    }

    @Test
    void boundWidthWeightIsAccepted() throws IOException {
        JsonNode root = syncJson(pairs(4, "a~b", "b~c"), "--weight", "bound-width");
        assertEquals("b", root.get("reference").asText());
        assertTruthWithinBounds(root);
        for (int i = 0; i < 2; i++) {
            // the wider of Poirier's bounds at the link's latest time, in ps
            JsonNode b = root.get("links").get(i).get("bounds").get(0);
            BigDecimal widest = b.get("up_ns").decimalValue().max(b.get("down_ns").decimalValue());
            assertEquals(widest.movePointRight(3).doubleValue(), root.get("tree").get(i).get("weight").asDouble());
        }
        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString(), "--weight", "bound-width");
        assertTrue(text.out().contains("weight (bound-width)"), text.out());
        CliRun bad = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString(), "--weight", "fastest");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("'fastest' is not a link weight"), bad.err());
    }

    @Test
    void nodeWithoutAccurateLinkIsItsOwnComponent() throws IOException {
        // a~b only has one message each way: APPROXIMATE, so a is alone unless --approximate joins it
        String content = pairs(5, "b~c") + "a," + CLOCKS.get("a").at(BigDecimal.valueOf(1_000_000)) + ",b,"
                + CLOCKS.get("b").at(BigDecimal.valueOf(1_100_000)) + "\n"
                + "b," + CLOCKS.get("b").at(BigDecimal.valueOf(2_000_000)) + ",a,"
                + CLOCKS.get("a").at(BigDecimal.valueOf(2_100_000)) + "\n";
        CliRun r = CliRun.of("sync-pairs", "--pairs", csv(content).toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertEquals("APPROXIMATE", root.get("links").get(0).get("quality").asText());
        assertEquals("b", root.get("reference").asText());
        assertEquals("[{\"reference\":\"b\",\"nodes\":2},{\"reference\":\"a\",\"nodes\":1}]",
                root.get("components").toString());
        assertEquals("a", node(root, "a").get("component").asText());
        assertEquals(1, root.get("tree").size());
        assertTruthWithinBounds(root);
        assertTrue(r.err().contains("node a has no ACCURATE link: it is its own component"), r.err());
        assertFalse(r.err().contains("node b has no"), r.err());
        assertFalse(r.err().contains("node c has no"), r.err());
        CliRun text = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString());
        assertTrue(text.out().contains("component a (1 node), reference clock a"), text.out());

        // --approximate: a joins over the APPROXIMATE link, weight +infinity (null in JSON), unbounded
        CliRun approx = CliRun.of("sync-pairs", "--pairs", dir.resolve("pairs.csv").toString(), "--json", "--approximate");
        assertEquals(0, approx.exit(), approx.err());
        root = new ObjectMapper().readTree(approx.out());
        assertEquals("[{\"reference\":\"b\",\"nodes\":3}]", root.get("components").toString());
        JsonNode a = node(root, "a");
        assertEquals("b", a.get("component").asText());
        assertTrue(a.get("bound_ns").isNull() && a.get("up_ns").isNull() && a.get("down_ns").isNull(), a.toString());
        assertTrue(root.get("tree").get(0).get("weight").isNull(), root.get("tree").toString());
        assertTrue(root.get("tree").get(1).get("weight").isNumber(), root.get("tree").toString());
        assertFalse(approx.err().contains("no ACCURATE link"), approx.err());
        assertTrue(approx.err().contains("the bound of node a to its reference b is not finite yet"), approx.err());
    }

    @Test
    void everyCommandHasHelp() {
        assertTrue(CliRun.of("--help").out().contains("sync-pairs"));
        String help = CliRun.of("sync-pairs", "--help").out();
        for (String option : new String[] {"--pairs", "--reference", "--weight", "slope-accuracy", "bound-width",
                "--approximate", "--at", "--json", "--horizon", "--min-delay"}) {
            assertTrue(help.contains(option), option + " in " + help);
        }
    }

    @Test
    void durationsParseLikeOtherTools() {
        DurationConverter c = new DurationConverter();
        assertEquals(java.time.Duration.ofMinutes(30), c.convert("30m"));
        assertEquals(java.time.Duration.ofMillis(1500), c.convert("1.5s"));
        assertEquals(java.time.Duration.ZERO, c.convert("none"));
        assertEquals(java.time.Duration.ofHours(2), c.convert("PT2H"));
    }
}
