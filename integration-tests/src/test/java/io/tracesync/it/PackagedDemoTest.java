package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * README command 1, small: {@code tracesync demo} from the packaged jar, on the shared broker and registry, ends
 * with every node's streamed factor inside its guaranteed bound of the truth, equal to the offline answer, and
 * the HTML report.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class PackagedDemoTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void theDemoEndsWithEveryNodeBoundedAndEqualToTheOfflineAnswer() throws Exception {
        String out = PackagedJar.TOOLS.run(300, "demo", "--nodes", "6", "--duration", "20s", "--seed", "3",
                "--work", work.toString(),
                "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl());
        Matcher m = Pattern.compile("(\\d+) of (\\d+) nodes: true error inside the guaranteed bound; (\\d+) equal")
                .matcher(out);
        assertTrue(m.find(), out);
        assertTrue(m.group(1).equals("6") && m.group(2).equals("6") && m.group(3).equals("6"), out);
        assertTrue(Files.size(work.resolve("report/report.html")) > 1000, "no report");
    }

    /**
     * {@code --keep-running}, on the broker and registry another demo used before (its topics are its own): the live
     * view it tells at the start answers while the demo runs, the conversion it prints at the end answers, the simulated clocks known, with the true time inside the guaranteed interval;
     * every factor has its true error within its bounds; SIGTERM (Ctrl-C) stops the demo and all it started.
     */
    @Test
    void keptRunningTheDemoShowsTheTruthBesideItsAnswersAndStopsOnCtrlC() throws Exception {
        Path log = work.resolve("demo.log");
        Process demo = PackagedJar.TOOLS.startIn(work, log, List.of("demo", "--nodes", "4", "--duration", "10s",
                "--seed", "3", "--keep-running", "--work", work.resolve("demo").toString(),
                "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl()));
        List<ProcessHandle> started = new ArrayList<>();
        try {
            String live = awaitLine(demo, log, Pattern.compile("live view: (http://\\S+)"));
            HttpURLConnection page = (HttpURLConnection) URI.create(live).toURL().openConnection();
            assertEquals(200, page.getResponseCode(), "the live view while the demo runs");
            String conversion = awaitLine(demo, log, Pattern.compile("a conversion +(http://\\S+)"));
            started.addAll(demo.descendants().toList());
            String out = Files.readString(log);
            assertTrue(out.contains("4 of 4 nodes: true error inside the guaranteed bound; 4 equal"), out);
            assertTrue(out.indexOf("live view: ") < out.indexOf("4 of 4 nodes"), "the live view told at the start");
            JsonNode answer = JSON.readTree(URI.create(conversion).toURL());
            assertTrue(answer.get("inside").asBoolean() && answer.has("true_error_ns"), answer.toString());
            JsonNode factors = JSON.readTree(URI.create(conversion.replaceAll("/convert\\?.*", "/factors")).toURL());
            assertEquals(4, factors.get("factors").size(), factors.toString());
            for (JsonNode f : factors.get("factors")) {
                double error = f.get("true_error_ns").asDouble();
                assertTrue(error * 1000 <= f.get("down_ps").asLong() + 1
                        && -error * 1000 <= f.get("up_ps").asLong() + 1, f.toString());
            }
        } finally {
            started.add(demo.toHandle());
            demo.destroy();
            for (ProcessHandle p : started) {
                assertTrue(p.onExit().get(90, TimeUnit.SECONDS) != null, "still running: " + p.info());
            }
        }
    }

    /** The first match of {@code line}'s group 1 in the log, once the process printed it (5 minutes at most). */
    private static String awaitLine(Process p, Path log, Pattern line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline && p.isAlive()) {
            Matcher m = line.matcher(Files.readString(log));
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(500);
        }
        throw new AssertionError("no line " + line + (p.isAlive() ? " in 5 minutes" : ", the demo ended") + ":\n"
                + Files.readString(log));
    }

    /**
     * README command 1 as a user runs it: its own broker and registry, the default (relative) work directory; run
     * again in the same directory, it replaces the previous run.
     */
    @Test
    void theDemoStartsAndStopsItsOwnServicesAndRunsAgain() throws Exception {
        for (String seed : new String[] {"5", "6"}) {
            String out = PackagedJar.TOOLS.runIn(work, 300, "demo", "--nodes", "4", "--duration", "10s", "--seed",
                    seed);
            Matcher m = Pattern.compile("(\\d+) of (\\d+) nodes: true error inside the guaranteed bound; (\\d+) equal")
                    .matcher(out);
            assertTrue(m.find(), out);
            assertTrue(m.group(1).equals("4") && m.group(2).equals("4") && m.group(3).equals("4"), out);
            assertTrue(Files.size(work.resolve("demo/report/report.html")) > 1000, "no report");
            String kafkaLog = Files.readString(work.resolve("demo/services/kafka/kafka.log"));
            assertTrue(kafkaLog.contains("started"), "the demo's broker never started");
        }
    }
}
