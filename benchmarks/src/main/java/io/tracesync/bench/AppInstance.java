package io.tracesync.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.environment.FileTrees;
import io.tracesync.streams.Settings;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * One instance of the application, {@code tracesync run} in a JVM of its own (static membership, as the k8s
 * manifests run it: group.instance.id {@code <prefix>-<name>}, a state directory of its own), its output appended to
 * a log file; started, killed with SIGKILL, paused with SIGSTOP and resumed, its state wiped — what the failover and
 * fault runs do to instances. Pausing and resuming send signals with {@code kill}, so they need a POSIX system.
 */
public final class AppInstance implements AutoCloseable {

    /** OperationsServer's first line: the port it listens on (http.port=0 picks a free one). */
    private static final Pattern HTTP_PORT = Pattern.compile("HTTP on [^\\s]+:(\\d+) ");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final String memberId;
    private final List<String> command;
    private final Path log;
    private final Path stateDir;
    private Process process;
    /** Where the log stood at the last start or {@link #markLog}: {@link #awaitRunning} reads after it. */
    private long logMark;
    /** Where the log stood at the last start: {@link #health} finds the HTTP port after it. */
    private long startMark;
    /** The HTTP side of the current run, once its log named the port. */
    private URI http;
    /** Kills the process if this JVM exits first (a run stopped with Ctrl-C): no instance outlives its run. */
    private Thread hook;

    /**
     * @param javaCommand how to start {@code io.tracesync.app.ApplicationCommand} in a JVM of its own, without
     *     arguments
     * @param config the application's settings, shared by all instances
     * @param prefix the group instance ids' prefix
     */
    public AppInstance(String name, List<String> javaCommand, Map<String, String> config, String prefix, Path work) {
        this.name = name;
        this.memberId = prefix + "-" + name;
        this.log = log(work, name);
        this.stateDir = work.resolve("state-" + name);
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.addAll(List.of("run", "--verbose", "-D", "http.port=0"));
        Map<String, String> own = new HashMap<>(config);
        own.put("group.instance.id", memberId);
        own.put("state.dir", stateDir.toString());
        own.forEach((k, v) -> cmd.addAll(List.of("-D", k + "=" + v)));
        this.command = List.copyOf(cmd);
    }

    /**
     * How to start {@code io.tracesync.app.ApplicationCommand} in a JVM of its own with this JVM's runtime and class
     * path, and a heap of {@code heap} ({@code -Xmx} syntax).
     */
    public static List<String> javaCommand(String heap) {
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

    /** Starts the JVM (again, after a kill), its output appended to the log. */
    public void start() throws IOException {
        if (alive()) {
            throw new IllegalStateException("instance " + name + " runs already (pid " + process.pid() + ")");
        }
        Files.createDirectories(log.getParent());
        markLog();
        startMark = logMark;
        http = null;
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

    /**
     * The instance's {@code /health} (state, probes, threads and replication: docs/OPERATIONS.md), or null while its
     * HTTP side is not up or does not answer within 5 s.
     */
    public JsonNode health() throws IOException, InterruptedException {
        if (http == null) {
            Matcher port = HTTP_PORT.matcher(since(startMark));
            if (!port.find()) {
                return null;
            }
            http = URI.create("http://127.0.0.1:" + port.group(1) + "/health");
        }
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(http).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString());
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

    /** The exit status once it ended (137 after a SIGKILL), or -1 while it runs. */
    public int exitValue() {
        return process == null || process.isAlive() ? -1 : process.exitValue();
    }

    /** SIGKILL: no shutdown hook, nothing flushed or committed; returns once the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGSTOP: the JVM stops where it is, its connections open, its heartbeats silent. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
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

    /** Of these instances, the one whose consumer holds the network task's input partition; null if none does. */
    public static AppInstance networkOwner(Admin admin, Settings settings, Collection<AppInstance> instances)
            throws ExecutionException, InterruptedException {
        String id = settings.get("application.id");
        String network = id + "-" + (settings.bool(TracesyncConfig.LINKS_WITH_NETWORK_CONFIG) ? "pairs"
                : "network") + "-repartition";
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(id)).all().get().get(id);
        for (MemberDescription m : group.members()) {
            if (m.assignment().topicPartitions().contains(new TopicPartition(network, 0))) {
                // Kafka Streams gives each stream thread's consumer the instance id with "-<thread>" appended
                String member = m.groupInstanceId().orElse("");
                return instances.stream().filter(i -> member.equals(i.memberId) || member.startsWith(i.memberId + "-"))
                        .findFirst().orElse(null);
            }
        }
        return null;
    }
}
