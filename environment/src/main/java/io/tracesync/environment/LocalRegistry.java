package io.tracesync.environment;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apicurio Registry (in-memory storage, its default) run as a child process from the distribution that
 * tracesync-environment-artifacts recorded, unpacked once into {@code ~/.cache/tracesync}. It needs Java 21 or
 * later, found by {@link JavaRuntimes#atLeast(int)}; a small registry runs well on the quick-start C1 compiler.
 */
public final class LocalRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRegistry.class);
    static final String CCOMPAT_PATH = "/apis/ccompat/v7";
    private static final int JAVA_FEATURE = 21;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final List<String> command;
    private final Path workDir;
    private final Path log;
    private final String url;
    private final String version;
    private ChildProcess process;

    private LocalRegistry(List<String> command, Path workDir, Path log, String url, String version) {
        this.command = command;
        this.workDir = workDir;
        this.log = log;
        this.url = url;
        this.version = version;
    }

    /** Starts the registry with its log in {@code workDir} and waits until its Confluent-compatible API answers. */
    public static LocalRegistry start(Path dir) throws IOException {
        long began = System.nanoTime();
        Path workDir = dir.toAbsolutePath();
        EnvironmentArtifacts artifacts = EnvironmentArtifacts.load();
        String version = artifacts.registryVersion();
        Path home = RegistryDistribution.unpacked(artifacts.registryDistribution(),
                CacheDirectory.root().resolve("apicurio-registry-" + version));
        Path java = JavaRuntimes.atLeast(JAVA_FEATURE);
        int[] ports = FreePorts.pick(2);
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        command.addAll(ClassDataSharing.options(java, "apicurio-registry-" + version));
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + ports[0],
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + ports[1],
                "-jar", home.resolve(RegistryDistribution.LAUNCHER).toString()));
        Path log = workDir.resolve("registry.log");
        Files.deleteIfExists(log);
        String url = "http://127.0.0.1:" + ports[0] + CCOMPAT_PATH;
        LocalRegistry started = new LocalRegistry(command, workDir, log, url, version);
        started.launch();
        LOG.info("{} ready in {} ms", started.description(), (System.nanoTime() - began) / 1_000_000);
        return started;
    }

    private void launch() throws IOException {
        ChildProcess child = ChildProcess.start("Apicurio Registry " + version, command, workDir, log);
        HttpClient http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
        try {
            child.awaitReady(() -> answers(http, url), START_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            child.close();
            throw e;
        }
        process = child;
    }

    /** Stops the registry; {@link #restart()} brings it back on the same ports. Its in-memory storage is lost. */
    public void stop() {
        process.close();
        LOG.info("registry {} stopped", url);
    }

    /** Starts the stopped registry again on the same ports, empty, and waits until it answers. */
    public void restart() throws IOException {
        launch();
        LOG.info("{} restarted", description());
    }

    /** The Confluent-compatible base URL, e.g. {@code http://127.0.0.1:PORT/apis/ccompat/v7}. */
    public String url() {
        return url;
    }

    public long pid() {
        return process.pid();
    }

    /** One line: what runs where. */
    public String description() {
        return "Apicurio Registry " + version + " " + url + " (pid " + pid() + ")";
    }

    @Override
    public void close() {
        process.close();
    }

    private static boolean answers(HttpClient http, String url) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/subjects")).timeout(PROBE_TIMEOUT).build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        response.body().close();
        return response.statusCode() == 200;
    }
}
