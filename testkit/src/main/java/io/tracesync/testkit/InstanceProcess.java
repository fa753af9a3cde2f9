package io.tracesync.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.environment.FileTrees;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the application, {@code tracesync run} in a JVM of its own, its output appended to a log file,
 * its HTTP side on a free port that it tells in a port file ({@code http.port.file}); started, killed with SIGKILL,
 * paused with SIGSTOP and resumed, its state wiped — what the failover and fault runs and the crash tests do to
 * instances. Pausing and resuming send signals with {@code kill}, so they need a POSIX system.
 */
public final class InstanceProcess implements AutoCloseable {

    /** Exit status of a JVM killed by SIGKILL: 128 + 9. */
    public static final int KILLED = 137;

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final List<String> command;
    private final Path log;
    private final Path portFile;
    private final Path stateDir;
    private final String groupInstanceId;
    private Process process;
    /** Where the log stood at the last start or {@link #markLog}: {@link #awaitRunning} reads after it. */
    private long logMark;
    /** Kills the process if this JVM exits first (a run stopped with Ctrl-C): no instance outlives its run. */
    private Thread hook;

    /**
     * @param javaCommand how to start {@code io.tracesync.app.ApplicationCommand} in a JVM of its own, without
     *     arguments ({@link #classPathCommand}, or {@code java -jar} the packaged jar)
     * @param config the instance's settings; a {@code state.dir} under {@code work} unless they name one, and
     *     {@code group.instance.id} for static membership (as the k8s manifests run it)
     * @param work where its log ({@link #log(Path, String)}), port file and state directory go
     */
    public InstanceProcess(String name, List<String> javaCommand, Map<String, String> config, Path work) {
        this.name = name;
        this.log = log(work, name);
        this.portFile = work.resolve("instance-" + name + ".port");
        Map<String, String> own = new HashMap<>(config);
        own.putIfAbsent("state.dir", work.resolve("state-" + name).toString());
        own.put(TracesyncConfig.HTTP_PORT_CONFIG, "0");
        own.put(TracesyncConfig.HTTP_PORT_FILE_CONFIG, portFile.toString());
        this.stateDir = Path.of(own.get("state.dir"));
        this.groupInstanceId = own.get("group.instance.id");
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.addAll(List.of("run", "--verbose"));
        own.forEach((k, v) -> cmd.addAll(List.of("-D", k + "=" + v)));
        this.command = List.copyOf(cmd);
    }

    /**
     * How to start {@code io.tracesync.app.ApplicationCommand} in a JVM of its own with this JVM's runtime and class
     * path, and a heap of {@code heap} ({@code -Xmx} syntax).
     */
    public static List<String> classPathCommand(String heap) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap, "-cp",
                System.getProperty("java.class.path"), "io.tracesync.app.ApplicationCommand");
    }

    /** The log file of instance {@code name} under {@code work}. */
    public static Path log(Path work, String name) {
        return work.resolve("instance-" + name + ".log");
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    /** Its {@code group.instance.id}, or null without static membership. */
    public String groupInstanceId() {
        return groupInstanceId;
    }

    /** Starts the JVM (again, after a kill), its output appended to the log. */
    public void start() throws IOException {
        if (alive()) {
            throw new IllegalStateException("instance " + name + " runs already (pid " + process.pid() + ")");
        }
        Files.createDirectories(log.getParent());
        Files.deleteIfExists(portFile);
        markLog();
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
        if (hook == null) {
            hook = new Thread(() -> {
                if (alive()) {
                    process.destroyForcibly();
                }
            }, "stop instance " + name);
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /** From now on, {@link #awaitRunning} waits for a RUNNING state logged after this moment. */
    public void markLog() throws IOException {
        logMark = Files.exists(log) ? Files.size(log) : 0;
    }

    /**
     * Waits until the instance logs that Kafka Streams is RUNNING (TracesyncApp's state line) after its last start
     * or {@link #markLog}; fails with the log's tail if it exits or the time runs out.
     */
    public void awaitRunning(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!since(logMark).contains("-> RUNNING")) {
            if (!alive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("instance " + name + " (pid " + process.pid() + ") not RUNNING"
                        + (alive() ? " after " + timeout.toSeconds() + " s" : ": exited with " + exitValue())
                        + "; the end of its log " + log + ":\n" + tail(30));
            }
            Thread.sleep(100);
        }
    }

    /** The root of its HTTP side, once it told its port (after its last start); null before. */
    public URI http() throws IOException {
        try {
            return URI.create("http://127.0.0.1:" + Files.readString(portFile, StandardCharsets.US_ASCII).strip()
                    + "/");
        } catch (NoSuchFileException notYet) {
            return null;
        }
    }

    /**
     * The instance's {@code /health} (state, probes, threads and replication: docs/OPERATIONS.md), or null while its
     * HTTP side is not up or does not answer within 5 s.
     */
    public JsonNode health() throws IOException, InterruptedException {
        URI root = http();
        if (root == null) {
            return null;
        }
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(root.resolve("health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(answer.body());
        } catch (IOException notUp) {
            return null;
        }
    }

    /** The last lines of the log. */
    public String tail(int lines) throws IOException {
        List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private String since(long offset) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset),
                StandardCharsets.ISO_8859_1);
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** The exit status once it ended ({@link #KILLED} after a SIGKILL), or -1 while it runs. */
    public int exitValue() {
        return process == null || process.isAlive() ? -1 : process.exitValue();
    }

    /** Fails, naming the log, if the instance has exited. */
    public void requireAlive() {
        if (!alive()) {
            throw new IllegalStateException("instance " + name + " exited with " + exitValue() + "; see " + log);
        }
    }

    /** SIGKILL: no shutdown hook, nothing flushed or committed; returns the exit status once the process is gone. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor();
    }

    /**
     * SIGSTOP: the JVM stops where it is, its connections open, its heartbeats silent; returns once the kernel shows
     * it stopped (a signal is delivered a moment after {@code kill} returns), where {@code /proc} tells.
     */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
        awaitState(true);
    }

    /** SIGCONT after {@link #pause()}; returns once it runs again, where {@code /proc} tells. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
        awaitState(false);
    }

    /** Waits (5 s at most) until the process is stopped, or no longer stopped, as {@code /proc/PID/stat} says. */
    private void awaitState(boolean stopped) throws IOException, InterruptedException {
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Files.exists(stat) && System.nanoTime() < deadline) {
            String s;
            try {
                s = Files.readString(stat, StandardCharsets.ISO_8859_1);
            } catch (NoSuchFileException gone) {
                return;
            }
            // pid (comm) state …: the state follows the last ')', the command name may hold any character
            char state = s.charAt(s.lastIndexOf(')') + 2);
            if ((state == 'T' || state == 't') == stopped) {
                return;
            }
            Thread.sleep(5);
        }
    }

    /** Deletes the state directory; only while the instance does not run. */
    public void wipeState() throws IOException {
        if (alive()) {
            throw new IllegalStateException("instance " + name + " runs: its state cannot be wiped");
        }
        FileTrees.delete(stateDir);
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " exited with " + kill.exitValue());
        }
    }

    /** Stops it if it runs: resumed if paused, then gently, then by force. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook stops it
            }
            hook = null;
        }
        if (alive()) {
            signal("CONT");
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
