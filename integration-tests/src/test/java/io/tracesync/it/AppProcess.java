package io.tracesync.it;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code tracesync run} as a separate process from the packaged jar, output in a log file, so that a test can kill
 * it the hard way: {@link #kill()} is a SIGKILL ({@link Process#destroyForcibly()} on Linux), no shutdown hook runs,
 * nothing is flushed or committed.
 */
final class AppProcess implements AutoCloseable {

    /** Exit status of a JVM killed by SIGKILL: 128 + 9. */
    static final int KILLED = 137;
    private static final List<String> FLAGS = List.of("bootstrap.servers", "schema.registry.url", "application.id");

    private final Process process;
    private final Path log;

    private AppProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code tracesync run} with these settings: the three usual ones as flags, the others as {@code -D}. */
    static AppProcess start(Map<String, String> settings, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(PackagedJar.java(), "-XX:+UseSerialGC", "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-jar", PackagedJar.IMAGE.jar().toString(), "run", "-D", "http.port=0"));
        settings.forEach((k, v) -> {
            if (FLAGS.contains(k)) {
                cmd.addAll(List.of("--" + k.replace('.', '-'), v));
            } else {
                cmd.addAll(List.of("-D", k + "=" + v));
            }
        });
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
        return new AppProcess(p, log);
    }

    /** Waits until Kafka Streams reports RUNNING (the state line TracesyncApp logs); fails if the process ends. */
    void awaitRunning(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.readString(log, StandardCharsets.ISO_8859_1).contains("-> RUNNING")) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("tracesync run (pid " + process.pid() + ") not RUNNING"
                        + (process.isAlive() ? " after " + timeout.toSeconds() + " s" : ": exited")
                        + "; its log " + log + ":\n" + tail());
            }
            Thread.sleep(50);
        }
    }

    /** SIGKILL; returns the exit status once the process is gone. */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
        return process.exitValue();
    }

    String tail() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** Stops it if it still runs (a failed test): gently, then by force. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
