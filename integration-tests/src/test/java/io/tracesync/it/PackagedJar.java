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

/** The packaged application, run as a user runs it: {@code java -jar tracesync-topology-*-all.jar ARGS}. */
final class PackagedJar {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private PackagedJar() {
    }

    /** The packaged jar, {@code topology/target/tracesync-topology-*-all.jar}. */
    static Path jar() throws IOException {
        try (var files = Files.list(ROOT.resolve("topology/target"))) {
            return files.filter(p -> p.getFileName().toString().endsWith("-all.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "topology/target has no -all.jar: run `./mvnw verify` from the root"));
        }
    }

    /** The java launcher of this JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs it from the repository root and returns its standard output; fails unless it exits with 0 in time. */
    static String run(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        return runIn(ROOT, timeoutSeconds, args);
    }

    /** As {@link #run(long, String...)}, from {@code directory} and without services named by the environment. */
    static String runIn(Path directory, long timeoutSeconds, String... args) throws IOException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command(List.of(), args)).directory(directory.toFile());
        builder.environment().remove("TRACESYNC_BOOTSTRAP");
        builder.environment().remove("TRACESYNC_REGISTRY_URL");
        Process p = builder.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tracesync " + String.join(" ", args) + " did not finish in "
                    + timeoutSeconds + " s");
        }
        assertEquals(0, p.exitValue(), err.join());
        return out;
    }

    static String run(String... args) throws IOException, InterruptedException {
        return run(60, args);
    }

    /** Starts it in the background with extra JVM options, standard output and errors into {@code log}. */
    static Process start(Path log, List<String> jvmOptions, String... args) throws IOException {
        return new ProcessBuilder(command(jvmOptions, args)).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    private static List<String> command(List<String> jvmOptions, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar().toString()));
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
