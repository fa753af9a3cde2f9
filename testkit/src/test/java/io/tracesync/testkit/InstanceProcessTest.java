package io.tracesync.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instance process's life on a stand-in for the application ({@link FakeInstance}): started, found RUNNING in its
 * log, its HTTP side at the port it told, killed with SIGKILL and started again on another port, paused and resumed,
 * its state wiped only while it is down.
 */
class InstanceProcessTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    @TempDir
    Path work;

    private InstanceProcess instance(String name) {
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-cp", System.getProperty("java.class.path"), FakeInstance.class.getName());
        return new InstanceProcess(name, java, Map.of("group.instance.id", "test-" + name), work);
    }

    @Test
    void startsTellsItsPortAndIsKilledAndStartedAgain() throws Exception {
        try (InstanceProcess a = instance("a")) {
            assertEquals("test-a", a.groupInstanceId());
            a.start();
            a.awaitRunning(WAIT);
            JsonNode health = awaitHealth(a);
            assertEquals("test-a", health.path("member").asText());
            URI first = a.http();
            assertThrows(IllegalStateException.class, a::start, "runs already");
            assertThrows(IllegalStateException.class, a::wipeState, "wiped while it runs");
            assertEquals(InstanceProcess.KILLED, a.kill());
            assertFalse(a.alive());
            assertThrows(IllegalStateException.class, a::requireAlive);
            assertTrue(Files.isDirectory(work.resolve("state-a")));
            a.wipeState();
            assertFalse(Files.exists(work.resolve("state-a")));
            a.start();
            a.awaitRunning(WAIT);
            assertNotNull(awaitHealth(a), "a new port told after the restart");
            assertNotEquals(first, a.http(), "the port of the run before is not kept");
            assertTrue(Files.readString(a.log()).split("-> RUNNING", -1).length == 3, "both runs in one log");
        }
    }

    @Test
    void aPausedInstanceDoesNotAnswerUntilResumed() throws Exception {
        try (InstanceProcess b = instance("b")) {
            b.start();
            b.awaitRunning(WAIT);
            awaitHealth(b);
            b.pause();
            Path stat = Path.of("/proc", Long.toString(b.pid()), "stat");
            assertEquals(null, b.health(), () -> "a stopped JVM answers nothing within 5 s; its state: "
                    + (Files.exists(stat) ? read(stat) : "unknown"));
            b.resume();
            assertNotNull(awaitHealth(b));
        }
        assertFalse(Files.readString(InstanceProcess.log(work, "b")).isEmpty());
    }

    @Test
    void aFailedStartNamesTheLog() throws Exception {
        InstanceProcess c = new InstanceProcess("c", List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", "nowhere", "NoSuchMain"), Map.of(), work);
        c.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.awaitRunning(WAIT));
        assertTrue(e.getMessage().contains("exited with 1") && e.getMessage().contains(c.log().toString()),
                e.getMessage());
        c.close();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** The instance's /health once its HTTP side answers; the port file may come a moment after RUNNING. */
    private static JsonNode awaitHealth(InstanceProcess i) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode h;
        while ((h = i.health()) == null) {
            assertTrue(System.nanoTime() < deadline, "no /health within " + WAIT);
            Thread.sleep(50);
        }
        return h;
    }
}
