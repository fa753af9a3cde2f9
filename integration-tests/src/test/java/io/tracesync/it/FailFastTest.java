package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged application, pointed at services that do not answer, says what it waits for and stops within its
 * check timeout with one {@code error:} line naming the setting to check and exit code 2: no minute of retries, no
 * client warnings, no stack trace. A misspelt key or a wrong value, tracesync's or Kafka's, stops it before it waits
 * for anything; a key that nothing knows is a warning.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class FailFastTest {

    @TempDir
    Path dir;

    @Test
    void anUnreachableBrokerEndsTheRunWithinTheCheckTimeout() throws Exception {
        long start = System.nanoTime();
        PackagedJar.Ended ended = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "--bootstrap-servers",
                "127.0.0.1:1", "--schema-registry-url", "http://127.0.0.1:2", "-D", "http.port=0", "-D",
                "startup.check.timeout=3s");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(2, ended.exit(), ended.err());
        assertEquals(List.of("waiting for a Kafka broker at 127.0.0.1:1 (up to 3 s, startup.check.timeout)...",
                "error: no Kafka broker answered at 127.0.0.1:1 within 3 s; check bootstrap.servers (and "
                + "security.protocol, ssl.*, sasl.* for a secured cluster), or raise startup.check.timeout"),
                ended.err().lines().toList(), "what it waits for, then why it stopped");
        assertTrue(seconds < 15, "ended after " + seconds + " s");
    }

    @Test
    void anUnreachableRegistryIsNamedOnceTheBrokerAnswers() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        PackagedJar.Ended ended = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "--bootstrap-servers",
                SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url", "http://127.0.0.1:" + closed,
                "-D", "http.port=0");
        assertEquals(2, ended.exit(), ended.err());
        List<String> lines = ended.err().lines().toList();
        assertEquals(1, lines.size(), ended.err());
        assertTrue(lines.get(0).startsWith("error: the schema registry at http://127.0.0.1:" + closed
                + " did not answer as one: ") && lines.get(0).contains("check schema.registry.url"), lines.get(0));
    }

    @Test
    void aMisspeltKeyABadArgumentAndAPortInUseAreOneErrorLineEach() throws Exception {
        PackagedJar.Ended misspelt = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "-D",
                "factors.emit.intervall=1s");
        assertEquals(2, misspelt.exit(), misspelt.err());
        assertEquals(List.of("error: unknown configuration key 'factors.emit.intervall'; did you mean "
                + "'factors.emit.interval'? (tracesync's keys: docs/STREAMS.md, Configuration)"),
                misspelt.err().lines().toList());
        PackagedJar.Ended kafkaKey = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "-D",
                "bootstrap.server=1.2.3.4:9092");
        assertEquals(2, kafkaKey.exit(), kafkaKey.err());
        assertEquals(List.of("error: unknown configuration key 'bootstrap.server'; did you mean 'bootstrap.servers'?"),
                kafkaKey.err().lines().toList(), "Kafka's keys are checked too");
        PackagedJar.Ended kafkaValue = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "--bootstrap-servers",
                "127.0.0.1:1", "-D", "commit.interval.ms=abc");
        assertEquals(2, kafkaValue.exit(), kafkaValue.err());
        assertEquals(1, kafkaValue.err().lines().count(), "refused before waiting for the broker: " + kafkaValue.err());
        assertTrue(kafkaValue.err().startsWith("error: Invalid value abc for configuration commit.interval.ms"),
                kafkaValue.err());
        PackagedJar.Ended unknown = PackagedJar.IMAGE.end(PackagedJar.ROOT, 60, "run", "-D", "some.random.key=1",
                "--print-config");
        assertEquals(0, unknown.exit(), unknown.err());
        assertEquals(List.of("warning: unknown configuration key 'some.random.key' (not a key of tracesync, Kafka "
                + "Streams, the Kafka clients or the schema registry client): ignored"),
                unknown.err().lines().toList());
        PackagedJar.Ended nodes = PackagedJar.TOOLS.end(PackagedJar.ROOT, 60, "demo", "--nodes", "1", "--work",
                dir.resolve("demo").toString());
        assertEquals(2, nodes.exit(), nodes.err());
        assertEquals(1, nodes.err().lines().count(), nodes.err());
        assertTrue(nodes.err().startsWith("error: "), nodes.err());
        try (ServerSocket taken = new ServerSocket(0)) {
            PackagedJar.Ended port = PackagedJar.IMAGE.end(PackagedJar.ROOT, 90, "run", "--bootstrap-servers",
                    SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url",
                    SharedKafkaEnvironment.registryUrl(), "-D", "application.id=it-fail-fast-" + UUID.randomUUID(),
                    "-D", "state.dir=" + dir.resolve("state"), "-D", "http.port=" + taken.getLocalPort());
            assertEquals(2, port.exit(), port.err());
            List<String> errors = port.err().lines().filter(l -> l.startsWith("error: ")).toList();
            assertEquals(1, errors.size(), port.err());
            assertTrue(errors.get(0).startsWith("error: cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort()),
                    errors.get(0));
            assertTrue(port.err().lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace: " + port.err());
        }
    }

    /**
     * SIGTERM (Ctrl-C) as soon as the application started (or began waiting for its first trace topic): it closes,
     * says so, and ends within a minute.
     */
    @Test
    void aSigtermWhileStartingClosesTheApplication() throws Exception {
        Path log = dir.resolve("run.log");
        Process run = PackagedJar.IMAGE.start(log, List.of(), "run", "--bootstrap-servers",
                SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url",
                SharedKafkaEnvironment.registryUrl(), "-D", "application.id=it-stop-" + UUID.randomUUID(),
                "-D", "state.dir=" + dir.resolve("state"), "-D", "http.port=0");
        try {
            long deadline = System.nanoTime() + 120_000_000_000L;
            // started: rebalancing, or waiting for a trace topic where the broker has none matching traces\..+
            while (!Files.readString(log).contains("state CREATED -> REBALANCING")
                    && !Files.readString(log).contains("waiting for a trace topic")) {
                assertTrue(run.isAlive() && System.nanoTime() < deadline, "not started: " + Files.readString(log));
                Thread.sleep(20);
            }
            run.destroy();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "still running a minute after SIGTERM: "
                    + Files.readString(log));
            String out = Files.readString(log);
            assertTrue(out.contains("\nstopping") && out.contains("\nstopped\n"), "closed, and said so: " + out);
        } finally {
            run.destroyForcibly();
        }
    }
}
