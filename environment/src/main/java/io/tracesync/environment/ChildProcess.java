package io.tracesync.environment;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process started by this JVM with its output appended to a log file. {@link #close()} stops it by PID, gently
 * first; a shutdown hook does the same if this JVM exits before.
 */
final class ChildProcess implements AutoCloseable {
    private static final Duration GRACE = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(100);

    /** A readiness check; an exception counts as not ready yet. */
    interface Probe {
        boolean ready() throws Exception;
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final Thread hook;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.hook = new Thread(() -> stop(process), "stop " + name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts {@code command} in {@code directory}, output and errors appended to {@code log}. */
    static ChildProcess start(String name, List<String> command, Path directory, Path log) throws IOException {
        Files.createDirectories(directory);
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
        return new ChildProcess(name, process, log);
    }

    /** Runs {@code command} to completion; fails with the log's tail unless it exits with 0 within the timeout. */
    static void run(String name, List<String> command, Path directory, Path log, Duration timeout)
            throws IOException {
        try (ChildProcess child = start(name, command, directory, log)) {
            if (!child.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw child.failure("did not finish within " + timeout.toSeconds() + " s");
            }
            if (child.process.exitValue() != 0) {
                throw child.failure("exited with " + child.process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(name + " interrupted", e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Polls {@code probe} until it answers true; fails with the log's tail if the process exits or time runs out. */
    void awaitReady(Probe probe, Duration timeout) throws IOException {
        await(probe, timeout, "ready");
    }

    /** As {@link #awaitReady}, for a state named {@code awaited} in the failure ("not … after N s"). */
    void await(Probe probe, Duration timeout, String awaited) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw failure("exited with " + process.exitValue() + " before it was " + awaited);
            }
            try {
                if (probe.ready()) {
                    return;
                }
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(name + ": interrupted while waiting for it", e);
            } catch (Exception notYet) {
                // retried until the deadline
            }
        }
        throw failure("not " + awaited + " after " + timeout.toSeconds() + " s");
    }

    /** Stops the process: SIGTERM, then a kill after a grace period. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook stops it
        }
        stop(process);
    }

    /** Kills the process the hard way (SIGKILL: nothing flushed, no shutdown hook) and waits until it is gone. */
    void kill() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook stops it
        }
        List<ProcessHandle> descendants = process.toHandle().descendants().toList();
        process.destroyForcibly();
        process.waitFor();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** An exception naming the process, its PID and log file, with the last lines of the log. */
    IOException failure(String what) {
        return new IOException(name + " (pid " + process.pid() + ") " + what + "; last lines of " + log + ":\n"
                + tail(log, 40));
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read: " + e + ")";
        }
    }

    private static void stop(Process process) {
        ProcessHandle handle = process.toHandle();
        List<ProcessHandle> descendants = handle.descendants().toList();
        try {
            handle.destroy();
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                handle.destroyForcibly();
                process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            handle.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }
}
