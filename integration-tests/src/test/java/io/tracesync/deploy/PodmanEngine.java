package io.tracesync.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Podman as the container engine of the deployment tests: commands run with the repository's
 * {@code podman/containers.conf} (runc, cgroupfs, no default ulimits), its Docker-compatible API on a private socket
 * for Docker Compose v2 ({@code podman/compose-v2.sh}), and, where no systemd runs Podman's health-check timers, a
 * thread that runs the project's containers' health checks every two seconds, as the timers would. Fails with a clear
 * message where a tool is missing; every process it starts is stopped by {@link #close}.
 */
final class PodmanEngine implements AutoCloseable {

    private static final Duration HEALTH_CHECK_EVERY = Duration.ofSeconds(2);

    private final Path log;
    private final Map<String, String> env;
    private final Path compose;
    private Process service;
    private ScheduledExecutorService healthChecks;

    private PodmanEngine(Path dir, Path compose) {
        this.log = dir.resolve("podman.log");
        this.compose = compose;
        this.env = Map.of("CONTAINERS_CONF", DeployFiles.path("podman/containers.conf").toString(),
                "DOCKER_HOST", "unix://" + dir.resolve("podman.sock"));
    }

    /** The engine, after checking that podman, runc, mmdebstrap and Compose v2 are installed. */
    static PodmanEngine require(Path dir) throws IOException, InterruptedException {
        for (String tool : List.of("/usr/bin/podman", "/usr/sbin/runc", "/usr/bin/mmdebstrap")) {
            if (!Files.isExecutable(Path.of(tool))) {
                throw new AssertionError(tool + " is missing: apt-get install podman runc mmdebstrap (.ci/run does) "
                        + "to run the deployment on Podman, or leave these tests out (they run only with -Ppodman)");
            }
        }
        String fetched = new String(new ProcessBuilder(DeployFiles.path("podman/compose-v2.sh").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start().getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip();
        Path compose = Path.of(fetched);
        if (!Files.isExecutable(compose)) {
            throw new AssertionError("podman/compose-v2.sh gave no Docker Compose v2 binary: " + fetched);
        }
        return new PodmanEngine(dir, compose);
    }

    /** Runs podman with these arguments; its output, or an AssertionError with the output's end. */
    String podman(Duration timeout, String... args) throws IOException, InterruptedException {
        return podmanIn(DeployFiles.ROOT, timeout, args);
    }

    /**
     * As {@link #podman}, in another directory: {@code podman kube play} builds any image whose name is a directory
     * of its working directory (Podman 4.3 even with {@code --build=false}), and the repository has a file
     * {@code tracesync}.
     */
    String podmanIn(Path directory, Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/podman"));
        cmd.addAll(List.of(args));
        return run(cmd, directory, timeout);
    }

    /** Runs Docker Compose v2 on the repository's files against this engine's API. */
    String compose(Duration timeout, String... args) throws IOException, InterruptedException {
        startService();
        List<String> cmd = new ArrayList<>(List.of(compose.toString()));
        cmd.addAll(List.of(args));
        return run(cmd, DeployFiles.ROOT, timeout);
    }

    /** Runs a script of the repository (bash) with the engine's environment. */
    String script(Duration timeout, String script) throws IOException, InterruptedException {
        return run(List.of("bash", DeployFiles.path(script).toString()), DeployFiles.ROOT, timeout);
    }

    /** Whether the image exists locally. */
    boolean hasImage(String image) throws IOException, InterruptedException {
        Process p = process(List.of("/usr/bin/podman", "image", "exists", image));
        return p.waitFor() == 0;
    }

    /** Waits until the container has exited, and requires it exited with 0. */
    void awaitExited(String container, Duration timeout) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        String state;
        while (!(state = podman(Duration.ofMinutes(1), "inspect", container, "--format",
                "{{.State.Status}} {{.State.ExitCode}}").strip()).startsWith("exited")) {
            if (System.nanoTime() > end) {
                throw new AssertionError(container + " still " + state + " after " + timeout + ": "
                        + logs(container));
            }
            Thread.sleep(2000);
        }
        if (!state.equals("exited 0")) {
            throw new AssertionError(container + " " + state + ": " + logs(container));
        }
    }

    /** The container's last 30 lines of output, or why there are none. */
    String logs(String container) {
        try {
            return podman(Duration.ofMinutes(1), "logs", "--tail", "30", container);
        } catch (IOException | InterruptedException | AssertionError e) {
            return "(no logs: " + e.getMessage() + ")";
        }
    }

    /** Runs every health check of the project's containers every two seconds, until closed. */
    void runHealthChecks(String project) {
        healthChecks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "podman-health-checks");
            t.setDaemon(true);
            return t;
        });
        healthChecks.scheduleWithFixedDelay(() -> {
            try {
                String names = quietly(List.of("/usr/bin/podman", "ps", "--filter",
                        "label=com.docker.compose.project=" + project, "--format", "{{.Names}}"));
                for (String name : names.lines().filter(n -> !n.isBlank()).toList()) {
                    quietly(List.of("/usr/bin/podman", "healthcheck", "run", name));
                }
            } catch (IOException e) {
                // a container that went away between the listing and its check: the next round lists again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 0, HEALTH_CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void startService() throws IOException, InterruptedException {
        if (service != null) {
            return;
        }
        Path socket = Path.of(env.get("DOCKER_HOST").substring("unix://".length()));
        service = process(List.of("/usr/bin/podman", "system", "service", "--time=0", env.get("DOCKER_HOST")));
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(socket)) {
            if (!service.isAlive() || System.nanoTime() > end) {
                throw new AssertionError("podman system service did not open " + socket + ": " + tail());
            }
            Thread.sleep(100);
        }
    }

    private String run(List<String> cmd, Path directory, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile(log.getParent(), "command", ".log");
        ProcessBuilder b = new ProcessBuilder(cmd).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(String.join(" ", cmd) + " did not end in " + timeout + ": " + tail(out));
        }
        String text = Files.readString(out);
        Files.delete(out);
        synchronized (this) {
            Files.writeString(log, "$ " + String.join(" ", cmd) + "\n" + text, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " exited with " + p.exitValue() + ": "
                    + lastLines(text.lines().toList()));
        }
        return text;
    }

    /** A command's output, its exit status aside (a health check that fails is the container's news, not ours). */
    private String quietly(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
        b.environment().putAll(env);
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private Process process(List<String> cmd) throws IOException {
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.environment().putAll(env);
        return b.start();
    }

    private String tail() throws IOException {
        return tail(log);
    }

    private static String tail(Path file) throws IOException {
        return lastLines(Files.exists(file) ? Files.readAllLines(file) : List.of());
    }

    private static String lastLines(List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        if (healthChecks != null) {
            healthChecks.shutdownNow();
            healthChecks.awaitTermination(60, TimeUnit.SECONDS);
        }
        if (service != null) {
            service.destroy();
            if (!service.waitFor(15, TimeUnit.SECONDS)) {
                service.destroyForcibly().waitFor();
            }
        }
    }
}
