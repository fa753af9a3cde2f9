package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.sim.GroundTruth;
import io.tracesync.sim.OutputDirectory;
import io.tracesync.sim.PiecewiseLinearClock;
import io.tracesync.sim.SimulationConfig;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {

    @TempDir
    Path dir;

    private Path simulate(String name, String... options) {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("simulate", "--out", out.toString()));
        args.addAll(List.of(options));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("simulated "), r.out());
        return out;
    }

    private static Map<Path, byte[]> files(Path root) throws IOException {
        Map<Path, byte[]> m = new HashMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(root.relativize(p), Files.readAllBytes(p));
            }
        }
        return m;
    }

    private static final String[] SMALL = {"--nodes", "7", "--duration", "20s", "--topology", "cliques",
        "--group-size", "3", "--wander", "--wander-walk", "0.5", "--churn", "30%", "--loss", "5%",
        "--resolution", "10ns", "--rate", "1..200", "--ntp-poll", "16s", "--ntp-noise", "1ms", "--jumps-every", "5s",
        "--jump-size", "1us..10ms"};

    /** The defaults shown by --help are those of the simulator's own configuration, field by field. */
    @Test
    void optionDefaultsAreTheConfigurationDefaults() throws Exception {
        SimulateCommand cmd = new SimulateCommand();
        new CommandLine(cmd).parseArgs("--out", "unused");
        SimulationConfig fromOptions = cmd.simulation.config();
        SimulationConfig.Builder defaults = SimulationConfig.builder();
        for (Field f : SimulationConfig.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                assertEquals(f.get(defaults), f.get(fromOptions), f.getName());
            }
        }
    }

    @Test
    void sameSeedSameFilesOtherSeedOtherFiles() throws IOException {
        Map<Path, byte[]> a = files(simulate("a", SMALL));
        Map<Path, byte[]> b = files(simulate("b", SMALL));
        assertEquals(a.keySet(), b.keySet());
        assertEquals(5 + 7, a.size(), a.keySet().toString());
        String events = new String(a.get(Path.of(OutputDirectory.CLOCK_EVENTS)), StandardCharsets.US_ASCII);
        List<GroundTruth.Jump> jumps = GroundTruth.read(dir.resolve("a")).jumps();
        assertEquals(events.split(",jump,", -1).length - 1, jumps.size(), events);
        assertFalse(jumps.isEmpty(), "jumps in the truth");
        for (GroundTruth.Jump j : jumps) {
            PiecewiseLinearClock clock = GroundTruth.read(dir.resolve("a")).clock(j.node());
            // the clock steps by the jump between two consecutive ns (10 ns resolution: to within it)
            assertEquals(j.sizeNs(), clock.localAt(j.trueNs() + 1) - clock.localAt(j.trueNs()), 10);
        }
        for (Path p : a.keySet()) {
            assertArrayEquals(a.get(p), b.get(p), p.toString());
        }
        List<String> other = new ArrayList<>(List.of(SMALL));
        other.addAll(List.of("--seed", "2"));
        Map<Path, byte[]> c = files(simulate("c", other.toArray(new String[0])));
        assertFalse(java.util.Arrays.equals(a.get(Path.of("pairs.csv")), c.get(Path.of("pairs.csv"))));
    }

    @Test
    void groundTruthGivesBackEveryTimestamp() throws IOException {
        Path out = simulate("t", SMALL);
        GroundTruth truth = GroundTruth.read(out);
        List<String> pairs = Files.readAllLines(out.resolve("pairs.csv"));
        List<String> truePairs = Files.readAllLines(out.resolve("truth-pairs.csv"));
        assertEquals("sender,send_ns,receiver,recv_ns", pairs.get(0));
        assertEquals(pairs.size(), truePairs.size());
        assertTrue(pairs.size() > 1000, "pairs " + pairs.size());
        for (int i = 1; i < pairs.size(); i++) {
            String[] f = truePairs.get(i).split(",");
            assertTrue(truePairs.get(i).startsWith(pairs.get(i) + ","), "line " + i);
            long trueSend = Long.parseLong(f[4]);
            long trueRecv = Long.parseLong(f[5]);
            assertEquals(Long.parseLong(f[1]), truth.clock(f[0]).localAt(trueSend));
            assertEquals(Long.parseLong(f[3]), truth.clock(f[2]).localAt(trueRecv));
            Long min = truth.minDelayNs(f[0], f[2]);
            assertNotNull(min, f[0] + " and " + f[2] + " are not linked");
            assertTrue(trueRecv - trueSend >= min, "line " + i + " faster than the minimum delay " + min);
        }
        long events = 0;
        for (String node : truth.nodes()) {
            List<String> lines = Files.readAllLines(out.resolve("events").resolve(node + ".csv"));
            assertEquals("node,ts_ns,direction,saddr,daddr,sport,dport,seq,ack,flags", lines.get(0));
            PiecewiseLinearClock clock = truth.clock(node);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split(",");
                assertEquals(10, f.length, line);
                assertEquals(node, f[0]);
                long ts = Long.parseLong(f[1]);
                assertEquals(ts, clock.localAt(clock.trueAt(ts)), line);
                assertTrue(f[2].equals("SEND") || f[2].equals("RECV"), line);
                events++;
            }
        }
        JsonNode json = new ObjectMapper().readTree(out.resolve("truth.json").toFile());
        assertEquals(events, json.get("counts").get("events").asLong());
        assertEquals(pairs.size() - 1, json.get("counts").get("pairs").asLong());
        assertEquals(json.get("seed").asText(), truth.parameters().get("seed"));
        assertEquals(json.get("config").get("nodes").asText(), truth.parameters().get("nodes"));
        assertEquals(json.get("config").size() + 1, truth.parameters().size(), "the seed and every setting");
    }

    @Test
    void syncOfTheSimulatedPairsBoundsTheTrueOffset() throws IOException {
        Path out = simulate("e2e", "--nodes", "2", "--duration", "2m", "--drift-ppm", "150", "--rate", "50",
                "--one-way", "0", "--seed", "7");
        // clocks within 150 ppm of true time: the datasheet bound of 200 ppm holds too
        CliRun sync = CliRun.of("sync-pairs", "--pairs", out.resolve("pairs.csv").toString(), "--json", "--horizon",
                "none", "--max-drift-ppm", "200");
        assertEquals(0, sync.exit(), sync.err());
        JsonNode root = new ObjectMapper().readTree(sync.out());
        assertEquals("ACCURATE", root.get("links").get(0).get("quality").asText());
        GroundTruth truth = GroundTruth.read(out);
        Map<String, Long> latest = new HashMap<>();
        List<String> pairs = Files.readAllLines(out.resolve("pairs.csv"));
        for (String line : pairs.subList(1, pairs.size())) {
            String[] f = line.split(",");
            latest.merge(f[0], Long.parseLong(f[1]), Math::max);
            latest.merge(f[2], Long.parseLong(f[3]), Math::max);
        }
        for (JsonNode n : root.get("nodes")) {
            String node = n.get("node").asText();
            PiecewiseLinearClock own = truth.clock(node);
            PiecewiseLinearClock ref = truth.clock(n.get("component").asText());
            long local = latest.get(node);
            // the reference's clock at the true instant the node's clock showed `local` (1 ns resolution)
            BigDecimal trueRef = BigDecimal.valueOf(ref.localAt(own.trueAt(local)));
            BigDecimal conv = new BigDecimal(n.get("slope").asText()).multiply(BigDecimal.valueOf(local))
                    .add(new BigDecimal(n.get("offset").asText()));
            BigDecimal error = trueRef.subtract(conv);
            BigDecimal slack = BigDecimal.valueOf(2); // the truth's floors, ns
            assertTrue(error.compareTo(n.get("up_ns").decimalValue().add(slack)) <= 0, node + ": error " + error);
            assertTrue(error.negate().compareTo(n.get("down_ns").decimalValue().add(slack)) <= 0,
                    node + ": error " + error);
            assertTrue(n.get("bound_ns").decimalValue().compareTo(BigDecimal.valueOf(1_000_000)) < 0, n.toString());
            long anchor = Long.parseLong(n.get("anchor_ns").asText());
            long atAnchor = ref.localAt(own.trueAt(anchor));
            assertTrue(Long.parseLong(n.get("datasheet_lower_ns").asText()) <= atAnchor + 2
                    && atAnchor <= Long.parseLong(n.get("datasheet_upper_ns").asText()) + 2, n.toString());
        }
    }

    @Test
    void badOptionsSayWhatIsWrong() throws IOException {
        String out = dir.resolve("bad").toString();
        assertBad("--nodes must be in 2..100000: 1", "--out", out, "--nodes", "1");
        assertBad("'ring' is not a topology", "--out", out, "--topology", "ring");
        assertBad("--loss must be in [0, 100%)", "--out", out, "--loss", "150%");
        assertBad("--rate must be positive", "--out", out, "--rate", "5..1");
        assertBad("'fast' is not a rate", "--out", out, "--rate", "fast");
        assertBad("'lots' is not a share", "--out", out, "--churn", "lots");
        assertBad("--duration must be in (0, 366 days]", "--out", out, "--duration", "none");
        assertBad("Missing required option: '--out=DIR'");
        Path full = dir.resolve("full");
        Files.createDirectories(full);
        Files.writeString(full.resolve("x"), "x");
        assertBad("is not empty", "--out", full.toString(), "--nodes", "2", "--duration", "1s");
    }

    @Test
    void aWrongOptionValueIsItsErrorLineAndWhereTheHelpIsNotTheWholeHelp() {
        CliRun r = CliRun.of("simulate", "--out", dir.resolve("x").toString(), "--duration", "2x");
        assertEquals(2, r.exit(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("error: Invalid value for option '--duration': "), lines.get(0));
        assertEquals("(tracesync simulate --help lists the options)", lines.get(1));
        CliRun typo = CliRun.of("simulate", "--out", dir.resolve("y").toString(), "--node", "3");
        assertTrue(typo.err().startsWith("error: Unknown options: '--node'"), typo.err());
        assertTrue(typo.err().contains("--nodes"), "picocli's suggestion: " + typo.err());
    }

    private static void assertBad(String expected, String... options) {
        List<String> args = new ArrayList<>(List.of("simulate"));
        args.addAll(List.of(options));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void helpListsTheOptions() {
        assertTrue(CliRun.of("--help").out().contains("simulate"));
        String help = CliRun.of("simulate", "--help").out();
        for (String option : new String[] {"--nodes", "--topology", "--duration", "--seed", "--drift-ppm", "--offset",
            "--wander", "--resolution", "--loss", "--rate", "--min-delay", "--churn", "--out"}) {
            assertTrue(help.contains(option), option);
        }
    }
}
