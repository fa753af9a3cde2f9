package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's "same steps by hand", read from the README and run as written, in a fresh directory:
 * {@code local-services} (its two printed addresses then stand for B and URL), {@code simulate}, {@code import csv},
 * {@code run}, and the {@code curl} of {@code /convert}, whose answer must be what the README says it is — a time of
 * n3's trace (checked against the simulated events), converted within a bounded interval, with how far it lies from
 * the factor's anchor and, asked near the trace's end once {@code run} has read that far, without a note.
 * Two settings are added to {@code run}, because this machine runs other tests: a free HTTP port instead of 8080
 * (the curl follows it) and a state directory of the test's own. At the end every process the commands started has
 * stopped.
 */
class ReadmeTest {

    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static final Pattern ADDRESS =
            Pattern.compile("(?m)^(bootstrap\\.servers|schema\\.registry\\.url)=(\\S+)$");

    @TempDir
    Path dir;

    @Test
    void theStepsByHandRunAsWrittenAndConvertATimeOfTheTrace() throws Exception {
        List<List<String>> steps = stepsByHand(Files.readString(PackagedJar.ROOT.resolve("README.md")));
        assertEquals(List.of("local-services", "simulate", "import", "run", "curl"),
                steps.stream().map(s -> s.get(0).equals("curl") ? "curl" : s.get(1)).toList(), "the README's steps");
        Path log = dir.resolve("local-services.log");
        Process services = PackagedJar.TOOLS.startIn(dir, log, tail(steps.get(0)));
        Process run = null;
        try {
            Map<String, String> addresses = awaitAddresses(services, log);
            List<String> simulate = tail(steps.get(1));
            assertEquals(0, PackagedJar.TOOLS.end(dir, 120, simulate.toArray(String[]::new)).exit(), "simulate");
            List<String> imported = substitute(tail(steps.get(2)), addresses);
            PackagedJar.Ended importing = PackagedJar.TOOLS.end(dir, 300, imported.toArray(String[]::new));
            assertEquals(0, importing.exit(), importing.err());
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            List<String> running = new ArrayList<>(substitute(tail(steps.get(3)), addresses));
            running.addAll(List.of("-D", "http.port=" + port, "-D", "state.dir=" + dir.resolve("state")));
            run = PackagedJar.TOOLS.startIn(dir, dir.resolve("run.log"), running);
            String url = steps.get(4).get(1).replaceAll("^'|'$", "").replace("127.0.0.1:8080", "127.0.0.1:" + port);
            long t = Long.parseLong(url.replaceAll(".*[?&]t=(\\d+).*", "$1"));
            JsonNode answer = awaitAnswer(URI.create(url), t, run, dir.resolve("run.log"));
            checkAnswer(answer, t);
        } finally {
            List<ProcessHandle> started = new ArrayList<>(services.descendants().toList());
            started.add(services.toHandle());
            if (run != null) {
                started.addAll(run.descendants().toList());
                started.add(run.toHandle());
                stop(run);
            }
            stop(services);
            for (ProcessHandle p : started) {
                try {
                    p.onExit().get(60, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    fail("still running a minute after the commands were stopped: " + p.info());
                }
            }
        }
    }

    /** The indented command lines after "The same steps by hand", split into words, comments dropped. */
    static List<List<String>> stepsByHand(String readme) {
        int from = readme.indexOf("The same steps by hand");
        assertTrue(from >= 0, "README.md has no steps by hand");
        List<List<String>> steps = new ArrayList<>();
        boolean started = false;
        for (String line : readme.substring(from).split("\n", -1)) {
            if (line.startsWith("    ")) {
                started = true;
                String command = line.strip().replaceAll("\\s+#.*$", "");
                steps.add(Arrays.asList(command.split("\\s+")));
            } else if (started && !line.isBlank()) {
                break;
            }
        }
        return steps;
    }

    private static List<String> tail(List<String> step) {
        assertEquals("./tracesync", step.get(0), "a tracesync command: " + step);
        return step.subList(1, step.size());
    }

    private static List<String> substitute(List<String> args, Map<String, String> addresses) {
        return args.stream().map(a -> a.equals("B") ? addresses.get("bootstrap.servers")
                : a.equals("URL") ? addresses.get("schema.registry.url") : a).toList();
    }

    /** The two addresses local-services prints once its broker and registry answer. */
    private static Map<String, String> awaitAddresses(Process services, Path log) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            Matcher m = ADDRESS.matcher(Files.readString(log, StandardCharsets.UTF_8));
            Map<String, String> found = new TreeMap<>();
            while (m.find()) {
                found.put(m.group(1), m.group(2));
            }
            if (found.size() == 2) {
                return found;
            }
            if (!services.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("local-services printed no addresses"
                        + (services.isAlive() ? " in " + PATIENCE.toSeconds() + " s" : " and ended") + ":\n"
                        + Files.readString(log));
            }
            Thread.sleep(200);
        }
    }

    /**
     * The curl's answer once {@code run} has read n3's trace past t: once n3's latest factor ({@code GET
     * /factors/n3}, 404 until there is one) is anchored at or after t. The published factor follows the data: it is
     * renewed when its bound where the data now end has grown by {@code factors.min.change}.
     */
    private static JsonNode awaitAnswer(URI uri, long t, Process run, Path log) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI latest = uri.resolve("/factors/n3");
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline && run.isAlive()) {
            try {
                HttpResponse<String> f = get(http, latest);
                last = latest + ": " + f.statusCode() + " " + f.body();
                if (f.statusCode() == 200 && new ObjectMapper().readTree(f.body()).get("anchor_ns").asLong() >= t) {
                    HttpResponse<String> r = get(http, uri);
                    assertEquals(200, r.statusCode(), uri + ": " + r.body());
                    return new ObjectMapper().readTree(r.body());
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("n3 had no factor anchored at or after t = " + t
                + (run.isAlive() ? " in " + PATIENCE.toSeconds() + " s" : ": run ended") + "; last: " + last
                + "\nrun's log:\n" + Files.readString(log));
    }

    private static HttpResponse<String> get(HttpClient http, URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** What the README says of the answer, and of the time it asks about. */
    private void checkAnswer(JsonNode a, long t) throws IOException {
        long[] span = span(dir.resolve("run/events/n3.csv"));
        assertTrue(span[0] <= t && t <= span[1], "t=" + t + " lies in n3's trace " + Arrays.toString(span));
        String readme = Files.readString(PackagedJar.ROOT.resolve("README.md")).replaceAll("\\s+", " ");
        assertTrue(readme.contains("spans " + Long.toString(span[0]).substring(0, 10) + "… to "
                + Long.toString(span[1]).substring(0, 10) + "…"),
                "the README states n3's span as simulated: " + Arrays.toString(span));
        assertEquals("n3", a.get("node").asText());
        assertEquals(t, a.get("local_ns").asLong());
        BigDecimal reference = new BigDecimal(a.get("reference_ns").asText());
        assertTrue(BigDecimal.valueOf(a.get("lower_ns").asLong()).compareTo(reference) <= 0
                && reference.compareTo(BigDecimal.valueOf(a.get("upper_ns").asLong())) <= 0, a.toString());
        assertTrue(a.get("upper_ns").asLong() - a.get("lower_ns").asLong() < 10_000_000, "bounded tightly: " + a);
        // how far from the data; near the end of the trace, once run has read it, no note
        assertEquals(t - a.get("anchor_ns").asLong(), a.get("from_anchor_ns").asLong(), a.toString());
        assertTrue(a.get("bound_growth").asDouble() <= 2 && !a.has("note"), a.toString());
        assertTrue(!a.has("true_error_ns") && !a.has("true_reference_ns"), "no truth outside a simulation: " + a);
    }

    private static long[] span(Path events) throws IOException {
        try (Stream<String> lines = Files.lines(events)) {
            long[] ts = lines.skip(1).mapToLong(l -> Long.parseLong(l.split(",")[1])).toArray();
            return new long[] {Arrays.stream(ts).min().orElseThrow(), Arrays.stream(ts).max().orElseThrow()};
        }
    }

    /** As Ctrl-C: SIGTERM, the shutdown hooks stop what the command started; by force after a minute. */
    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("pid " + p.pid() + " did not stop within a minute of SIGTERM");
        }
    }
}
