package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A packaged command line, run as a user runs it: {@code java -jar tracesync-MODULE-*-all.jar ARGS}. {@link #IMAGE}
 * is the production image's jar (run, replay, correct-spans); {@link #TOOLS} the repository's {@code ./tracesync}
 * (module cli: the tools with the benchmarks' commands).
 */
final class PackagedJar {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final PackagedJar IMAGE = new PackagedJar("topology");
    static final PackagedJar TOOLS = new PackagedJar("cli");

    private final String module;

    private PackagedJar(String module) {
        this.module = module;
    }

    /** The packaged jar, {@code MODULE/target/tracesync-MODULE-*-all.jar}. */
    Path jar() throws IOException {
        try (var files = Files.list(ROOT.resolve(module).resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().endsWith("-all.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            module + "/target has no -all.jar: run `./mvnw verify` from the root"));
        }
    }

    /** The java launcher of this JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs it from the repository root and returns its standard output; fails unless it exits with 0 in time. */
    String run(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        return runIn(ROOT, timeoutSeconds, args);
    }

    /** As {@link #run(long, String...)}, from {@code directory} and without services named by the environment. */
    String runIn(Path directory, long timeoutSeconds, String... args) throws IOException,
            InterruptedException {
        Ended ended = end(directory, timeoutSeconds, args);
        assertEquals(0, ended.exit(), ended.err());
        return ended.out();
    }

    /** How a run ended: its exit code and everything it printed. */
    record Ended(int exit, String out, String err) {
    }

    /** Runs it from {@code directory}, whatever its exit code, without services named by the environment. */
    Ended end(Path directory, long timeoutSeconds, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command(List.of(), args)).directory(directory.toFile());
        builder.environment().remove("TRACESYNC_BOOTSTRAP");
        builder.environment().remove("TRACESYNC_REGISTRY_URL");
        Process p = builder.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(module + ": tracesync " + String.join(" ", args) + " did not finish in "
                    + timeoutSeconds + " s");
        }
        return new Ended(p.exitValue(), out, err.join());
    }

    String run(String... args) throws IOException, InterruptedException {
        return run(60, args);
    }

    /** Starts it in the background with extra JVM options, standard output and errors into {@code log}. */
    Process start(Path log, List<String> jvmOptions, String... args) throws IOException {
        return new ProcessBuilder(command(jvmOptions, args)).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    /**
     * Starts it in the background from {@code directory}, as a user would there, without services named by the
     * environment; standard output and errors into {@code log}.
     */
    Process startIn(Path directory, Path log, List<String> args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(List.of(), args.toArray(String[]::new)))
                .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("TRACESYNC_BOOTSTRAP");
        builder.environment().remove("TRACESYNC_REGISTRY_URL");
        return builder.start();
    }

    /** How to run it: this JVM's java with {@code jvmOptions}, {@code -jar} the jar, {@code args}. */
    List<String> command(List<String> jvmOptions, String... args) throws IOException {
        return command(jar(), jvmOptions, args);
    }

    /** How to run {@code jar}, this build's or another: this JVM's java with {@code jvmOptions}, {@code args}. */
    static List<String> command(Path jar, List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
