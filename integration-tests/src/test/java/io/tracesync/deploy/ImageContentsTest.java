package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The jar the Dockerfile copies into the image holds what {@code run}, {@code replay} and {@code correct-spans}
 * need and nothing else: no Testcontainers, no local broker or registry, no simulator, evaluation, importers,
 * benchmarks or JMH; its entry point offers exactly those three commands.
 */
class ImageContentsTest {

    /** Packages of development code, each with the module it belongs to. */
    private static final List<String> FORBIDDEN = List.of(
            "org/testcontainers/", "io/tracesync/environment/", "io/tracesync/sim/", "io/tracesync/eval/",
            "io/tracesync/cli/", "io/tracesync/lttng/", "io/tracesync/pcap/", "io/tracesync/bench/",
            "org/openjdk/jmh/", "io/tracesync/core/network/NetworkBenchmark", "org/junit/", "net/jqwik/");

    private static Path imageJar() {
        Path jar = DeployFiles.path("topology/target").resolve(DockerfileTest.shadedJarName());
        assertTrue(Files.isRegularFile(jar), jar + " is missing: run `./mvnw verify` from the root");
        return jar;
    }

    @Test
    void holdsNoDevelopmentCode() throws IOException {
        try (JarFile jar = new JarFile(imageJar().toFile())) {
            TreeSet<String> found = jar.stream().map(e -> e.getName())
                    .filter(name -> FORBIDDEN.stream().anyMatch(name::startsWith))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(new TreeSet<>(), found, "development code in the image's jar");
            assertTrue(jar.getEntry("io/tracesync/streams/TracesyncApp.class") != null, "the application is in it");
            assertTrue(jar.getEntry("io/tracesync/core/network/NetworkSync.class") != null, "the core is in it");
        }
    }

    @Test
    void itsEntryPointOffersTheProductionCommands() throws Exception {
        String main;
        try (JarFile jar = new JarFile(imageJar().toFile())) {
            main = jar.getManifest().getMainAttributes().getValue("Main-Class");
        }
        assertEquals("io.tracesync.app.ApplicationCommand", main);
        CommandLine cli = new CommandLine(Class.forName(main).getDeclaredConstructor().newInstance());
        assertEquals(new TreeSet<>(List.of("run", "replay", "correct-spans", "help")),
                new TreeSet<>(cli.getSubcommands().keySet()));
    }
}
