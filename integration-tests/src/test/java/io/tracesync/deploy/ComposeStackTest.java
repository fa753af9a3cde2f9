package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.sim.GroundTruth;
import io.tracesync.sim.PiecewiseLinearClock;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment as it is shipped, run on Podman: the images built from the Dockerfile (on base images made from
 * Debian's packages, {@code podman/base-images.sh}) and from {@code podman/}'s broker and registry files, then
 * {@code docker-compose.yml} with its simulator profile brought up by Docker Compose v2 — health checks and
 * {@code depends_on} conditions as written — until the simulator's 20-node cluster is traced into Kafka. Every node's
 * factor is then asked through the published HTTP port ({@code /convert}) at times across the run, and the true
 * time, from the simulator's own ground truth copied out of its container, must lie inside every bound. Runs only
 * with {@code -Ppodman} (root, podman, runc, mmdebstrap; .ci/run installs them).
 */
@Tag("podman")
class ComposeStackTest {

    private static final String PROJECT = "tracesync-podman-test";
    private static final Duration WAIT = Duration.ofMinutes(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void theComposeStackBuiltAndRunOnPodmanGivesEveryNodeBoundsHoldingTheTruth() throws Exception {
        requireFree(29092, 8081, 8080);
        try (PodmanEngine engine = PodmanEngine.require(dir)) {
            DeployImages.build(engine);
            engine.runHealthChecks(PROJECT);
            try {
                long start = System.nanoTime();
                // up returns once the simulator is started: after tracesync was healthy, after the broker and the
                // registry were (the depends_on conditions)
                engine.compose(WAIT, "-p", PROJECT, "--profile", "simulator", "up", "-d");
                String simulator = PROJECT + "-simulator-1";
                engine.awaitExited(simulator, WAIT);
                Path run = dir.resolve("run");
                engine.podman(Duration.ofMinutes(2), "cp", simulator + ":/tmp/run", run.toString());
                GroundTruth truth = GroundTruth.read(run);
                Set<String> nodes = new TreeSet<>();
                truth.nodes().forEach(nodes::add);
                awaitFactors(nodes);
                int checked = checkConversions(truth, nodes);
                System.out.printf("compose stack on Podman: %d nodes, %d conversions inside their bounds, %.0f s "
                        + "from up to the last check%n", nodes.size(), checked, (System.nanoTime() - start) / 1e9);
            } finally {
                engine.compose(WAIT, "-p", PROJECT, "--profile", "simulator", "down", "-v");
            }
        }
    }

    /** Fails, naming the port, if one that docker-compose.yml publishes is taken. */
    static void requireFree(int... ports) {
        for (int port : ports) {
            try (ServerSocket free = new ServerSocket(port)) {
                assertTrue(free.isBound());
            } catch (IOException e) {
                throw new AssertionError("port " + port + " is taken; docker-compose.yml publishes it", e);
            }
        }
    }

    /**
     * Waits until every node of the run has a factor, bounded (the reference's is exact); a 503 (the network task
     * starting or rebalancing, with Retry-After) is an answer to ask again.
     */
    private static void awaitFactors(Set<String> nodes) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        Set<String> bounded = Set.of();
        while (!bounded.equals(nodes)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("after " + WAIT + " factors bounded for " + bounded + " of " + nodes);
            }
            Thread.sleep(1000);
            HttpResponse<String> r = send("/factors");
            if (r.statusCode() == 503) {
                continue;
            }
            assertEquals(200, r.statusCode(), r::body);
            Set<String> now = new TreeSet<>();
            for (JsonNode f : JSON.readTree(r.body()).get("factors")) {
                if (!f.get("up_ps").isNull() && !f.get("down_ps").isNull()) {
                    now.add(f.get("node").asText());
                }
            }
            bounded = now;
        }
    }

    /**
     * Each node's time at nine points of its run converted by the deployed instance: the reference's true reading
     * at that moment lies inside the guaranteed bounds. The number of conversions checked.
     */
    private static int checkConversions(GroundTruth truth, Set<String> nodes) throws Exception {
        int checked = 0;
        for (String node : nodes) {
            PiecewiseLinearClock clock = truth.clock(node);
            for (int i = 1; i <= 9; i++) {
                long trueNs = clock.trueStart() + (clock.trueEnd() - clock.trueStart()) / 10 * i;
                long local = clock.localAt(trueNs);
                JsonNode c = get("/convert?node=" + node + "&t=" + local);
                String reference = c.get("reference").asText();
                long exact = truth.clock(reference).localAt(clock.trueAt(local));
                BigDecimal lower = new BigDecimal(c.get("lower_ns").asText());
                BigDecimal upper = new BigDecimal(c.get("upper_ns").asText());
                BigDecimal at = BigDecimal.valueOf(exact);
                assertTrue(lower.compareTo(at) <= 0 && at.compareTo(upper) <= 0, () -> node + " at " + local
                        + ": the true " + exact + " outside [" + lower + ", " + upper + "]: " + c);
                checked++;
            }
        }
        return checked;
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = send(path);
        assertEquals(200, r.statusCode(), () -> path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:8080" + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
