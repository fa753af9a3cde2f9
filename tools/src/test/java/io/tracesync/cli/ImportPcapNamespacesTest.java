package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.files.TraceCsv;
import io.tracesync.pcap.CaptureFiles;
import io.tracesync.pcap.CaptureReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real TCP traffic between two hosts: network namespaces made for the test, joined by a veth pair with addresses
 * inside them only, an HTTP server in one and curl in the other over IPv4 and IPv6, each side captured by tcpdump.
 * Both captures share the machine's clock, so shifting and stretching one host's timestamps by a known offset and
 * drift gives a known truth: the factors computed from the imported captures must contain it within their bounds.
 * Needs root, ip, tcpdump, curl and python3 (.ci/run installs them); a missing one fails the test, unless the tag
 * netns is left out ({@code -DexcludedGroups=netns}).
 */
@Tag("netns")
class ImportPcapNamespacesTest {

    private static final BigDecimal OFFSET_NS = new BigDecimal("-1234567890123");
    private static final BigDecimal DRIFT = new BigDecimal("0.000150");
    private static final MathContext MC = new MathContext(40, RoundingMode.HALF_EVEN);

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @Test
    void factorsFromTwoHostsCapturesContainTheKnownClockTransform() throws Exception {
        for (String tool : List.of("ip", "tcpdump", "curl", "python3")) {
            if (run(List.of("sh", "-c", "command -v " + tool), false) != 0) {
                fail(tool + " is missing: this test captures real traffic with ip, tcpdump, curl and python3 "
                        + "(apt-get install iproute2 tcpdump curl python3; .ci/run does), or leave this test out: "
                        + "-DexcludedGroups=netns");
            }
        }
        assertEquals("0", output("id", "-u"), "this test makes network namespaces and needs root; leave it out "
                + "with -DexcludedGroups=netns");
        String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
        String a = "tsync-a-" + tag;
        String b = "tsync-b-" + tag;
        Path pcapA = dir.resolve("a.pcap");
        Path pcapB = dir.resolve("b.pcap");
        try {
            host(a, b);
            Process captureA = capture(a, "va", pcapA);
            Process captureB = capture(b, "vb", pcapB);
            Process server = start("ip", "netns", "exec", b, "python3", "-m", "http.server", "8000", "--bind", "::",
                    "--directory", dir.toString());
            awaitServer(a);
            assertEquals(0, run(List.of("ip", "netns", "exec", a, "sh", "-c", "for i in $(seq 40); do "
                    + "curl -s -o /dev/null http://10.199.0.2:8000/ && "
                    + "curl -s -g -o /dev/null 'http://[fd00:199::2]:8000/' || exit 1; sleep 0.05; done"), true));
            stop(server);
            stop(captureA);
            stop(captureB);
        } finally {
            started.forEach(this::stop);
            run(List.of("ip", "netns", "del", a), false);
            run(List.of("ip", "netns", "del", b), false);
        }
        long t0 = firstTimestamp(pcapB);
        Path shifted = dir.resolve("b-shifted.pcapng");
        shift(pcapB, shifted, t0);

        Path events = dir.resolve("events");
        CliRun importA = CliRun.of("import", "pcap", "--node", "a", "--address", "10.199.0.1", "--address",
                "fd00:199::1", "--events-out", events.toString(), pcapA.toString());
        assertEquals(0, importA.exit(), importA.err());
        CliRun importB = CliRun.of("import", "pcap", "--node", "b", "--address", "10.199.0.2", "--address",
                "fd00:199::2", "--events-out", events.toString(), shifted.toString());
        assertEquals(0, importB.exit(), importB.err());

        List<SendReceive> pairs = pairs(read(events.resolve("a.csv")), read(events.resolve("b.csv")));
        assertTrue(pairs.size() >= 400, "pairs matched: " + pairs.size());
        NodeFactor factor = OfflineSync.factors(pairs, LinkOptions.NO_HORIZON,
                NetworkOptions.DEFAULT.withPinnedReference("a")).get("b");
        assertEquals("a", factor.reference());
        assertTrue(factor.factor().bounded(), "b's factor is bounded");
        long last = pairs.stream().mapToLong(p -> p.sender().equals("b") ? p.sendNs() : p.recvNs()).max()
                .orElseThrow();
        BigDecimal mapped = factor.factor().toReference().apply(last).toBigDecimal();
        BigDecimal truth = truth(last, t0);
        BigDecimal error = truth.subtract(mapped);
        BigDecimal up = BigDecimal.valueOf(factor.factor().upPs(), 3).add(BigDecimal.ONE);
        BigDecimal down = BigDecimal.valueOf(factor.factor().downPs(), 3).add(BigDecimal.ONE);
        assertTrue(error.compareTo(up) <= 0 && error.negate().compareTo(down) <= 0,
                "true a-time of b's " + last + " is " + truth + ", the factor gives " + mapped + " -" + down + " +"
                        + up + " ns (1 ns for the rewrite's rounding)");
        System.out.printf("%d pairs; b's factor at its last pair: error %s ns, bounds -%s +%s ns%n", pairs.size(),
                error.round(new MathContext(6)), down, up);
        BigDecimal slope = factor.factor().toReference().slope().toBigDecimal();
        BigDecimal trueSlope = BigDecimal.ONE.divide(BigDecimal.ONE.add(DRIFT), MC);
        assertTrue(slope.subtract(trueSlope).abs().compareTo(new BigDecimal("1e-6")) < 0,
                "slope " + slope + " against " + trueSlope);
    }

    /** Two namespaces joined by a veth pair, 10.199.0.1 and fd00:199::1 in {@code a}, .2 and ::2 in {@code b}. */
    private void host(String a, String b) throws IOException, InterruptedException {
        for (List<String> cmd : List.of(List.of("ip", "netns", "add", a), List.of("ip", "netns", "add", b),
                List.of("ip", "-n", a, "link", "add", "va", "type", "veth", "peer", "name", "vb", "netns", b),
                List.of("ip", "-n", a, "addr", "add", "10.199.0.1/24", "dev", "va"),
                List.of("ip", "-n", b, "addr", "add", "10.199.0.2/24", "dev", "vb"),
                List.of("ip", "-n", a, "addr", "add", "fd00:199::1/64", "dev", "va", "nodad"),
                List.of("ip", "-n", b, "addr", "add", "fd00:199::2/64", "dev", "vb", "nodad"),
                List.of("ip", "-n", a, "link", "set", "va", "up"), List.of("ip", "-n", b, "link", "set", "vb", "up"),
                List.of("ip", "-n", a, "link", "set", "lo", "up"), List.of("ip", "-n", b, "link", "set", "lo", "up"))) {
            assertEquals(0, run(cmd, true), String.join(" ", cmd));
        }
    }

    /** tcpdump on {@code itf} inside {@code ns}, nanosecond timestamps, once it listens. */
    private Process capture(String ns, String itf, Path file) throws IOException, InterruptedException {
        Path log = dir.resolve(itf + ".log");
        Process p = new ProcessBuilder("ip", "netns", "exec", ns, "tcpdump", "-i", itf, "-U", "-Z", "root",
                "--time-stamp-precision=nano", "-w", file.toString(), "tcp").redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        started.add(p);
        for (int i = 0; i < 100; i++) {
            if (Files.exists(log) && Files.readString(log).contains("listening on")) {
                return p;
            }
            if (!p.isAlive()) {
                fail("tcpdump in " + ns + " ended: " + Files.readString(log));
            }
            Thread.sleep(100);
        }
        return fail("tcpdump in " + ns + " does not listen: " + Files.readString(log));
    }

    private void awaitServer(String ns) throws IOException, InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (run(List.of("ip", "netns", "exec", ns, "curl", "-s", "-o", "/dev/null", "http://10.199.0.2:8000/"),
                    false) == 0) {
                return;
            }
            Thread.sleep(100);
        }
        fail("the HTTP server in the second namespace does not answer");
    }

    private Process start(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("server.log")
                .toFile()).start();
        started.add(p);
        return p;
    }

    private void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs a command to its end (at most a minute); its exit code, asserted 0 when {@code mustSucceed}. */
    private static int run(List<String> cmd, boolean mustSucceed) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", cmd) + " did not end");
        }
        if (mustSucceed && p.exitValue() != 0) {
            fail(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out);
        }
        return p.exitValue();
    }

    private static String output(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).start();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    private static long firstTimestamp(Path pcap) throws IOException {
        long[] first = {-1};
        try (InputStream in = Files.newInputStream(pcap)) {
            CaptureReader.read(in, f -> {
                if (first[0] < 0) {
                    first[0] = f.tsNs();
                }
            });
        }
        return first[0];
    }

    /** b's clock as another host's: t' = t + offset + drift·(t − t0), to the nearest nanosecond, as pcapng. */
    private static void shift(Path from, Path to, long t0) throws IOException {
        List<CaptureFiles.Packet> packets = new ArrayList<>();
        int[] linkType = {0};
        try (InputStream in = Files.newInputStream(from)) {
            CaptureReader.read(in, f -> {
                linkType[0] = f.linkType();
                BigDecimal t = BigDecimal.valueOf(f.tsNs());
                packets.add(new CaptureFiles.Packet(t.add(OFFSET_NS).add(DRIFT.multiply(t.subtract(
                        BigDecimal.valueOf(t0)))).setScale(0, RoundingMode.HALF_EVEN).longValueExact(), f.data()));
            });
        }
        Files.write(to, CaptureFiles.write(CaptureFiles.Format.PCAPNG_BE, linkType[0], packets));
    }

    /** The machine's (so a's) time of b's shifted timestamp {@code t}: the rewrite undone. */
    private static BigDecimal truth(long t, long t0) {
        BigDecimal x = BigDecimal.valueOf(t).subtract(OFFSET_NS).add(DRIFT.multiply(BigDecimal.valueOf(t0)));
        return x.divide(BigDecimal.ONE.add(DRIFT), MC);
    }

    private static List<TraceEvent> read(Path csv) throws IOException {
        List<TraceEvent> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.ISO_8859_1)) {
            TraceCsv.read(in, line -> {
                assertEquals(null, line.error(), csv + ":" + line.number());
                if (line.event() != null) {
                    out.add(line.event());
                }
            });
        }
        return out;
    }

    /** Each send matched with the receive of the same segment on the other node, segments seen once each only. */
    private static List<SendReceive> pairs(List<TraceEvent> a, List<TraceEvent> b) {
        Map<String, List<TraceEvent>> byKey = new HashMap<>();
        for (TraceEvent e : a) {
            byKey.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e);
        }
        for (TraceEvent e : b) {
            byKey.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e);
        }
        List<SendReceive> pairs = new ArrayList<>();
        for (List<TraceEvent> seen : byKey.values()) {
            if (seen.size() == 2 && seen.get(0).getDirection() != seen.get(1).getDirection()
                    && !seen.get(0).getNode().equals(seen.get(1).getNode())) {
                TraceEvent send = seen.get(0).getDirection() == Direction.SEND ? seen.get(0) : seen.get(1);
                TraceEvent recv = send == seen.get(0) ? seen.get(1) : seen.get(0);
                pairs.add(new SendReceive(send.getNode(), send.getTsNs(), recv.getNode(), recv.getTsNs()));
            }
        }
        pairs.sort(Comparator.comparingLong(SendReceive::sendNs));
        return pairs;
    }

    /** Addresses, ports, seq, ack and flags: the line of the trace file without node, time and direction. */
    private static String key(TraceEvent e) {
        return TraceCsv.format(e).strip().split(",", 4)[3];
    }
}
