package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaRuntimesTest {
    @TempDir
    Path dir;

    @Test
    void readsTheFeatureVersionFromTheReleaseFile() throws IOException {
        assertEquals(OptionalInt.of(25), JavaRuntimes.featureVersion(home("a", "25.0.3")));
        assertEquals(OptionalInt.of(21), JavaRuntimes.featureVersion(home("b", "21")));
        assertEquals(OptionalInt.of(8), JavaRuntimes.featureVersion(home("c", "1.8.0_402")));
        assertEquals(OptionalInt.empty(), JavaRuntimes.featureVersion(dir.resolve("missing")));
    }

    @Test
    void picksTheNewestHomeOfAtLeastTheFeatureWithALauncher() throws IOException {
        Path jdk17 = home("jdk17", "17.0.15");
        Path jdk21 = home("jdk21", "21.0.7");
        Path jdk25 = home("jdk25", "25.0.3");
        Path noLauncher = dir.resolve("jdk26");
        Files.createDirectories(noLauncher);
        Files.writeString(noLauncher.resolve("release"), "JAVA_VERSION=\"26\"\n");

        assertEquals(Optional.of(jdk25), JavaRuntimes.newest(List.of(jdk17, jdk25, jdk21, noLauncher), 21));
        assertEquals(Optional.of(jdk21), JavaRuntimes.newest(List.of(jdk17, jdk21), 21));
        assertEquals(Optional.empty(), JavaRuntimes.newest(List.of(jdk17, noLauncher), 21));
    }

    @Test
    void findsARuntimeAtLeastAsNewAsThisOne() throws IOException {
        Path java = JavaRuntimes.atLeast(Runtime.version().feature());
        assertTrue(Files.isExecutable(java), java.toString());
        assertTrue(Files.isExecutable(JavaRuntimes.newest()));
        assertTrue(JavaRuntimes.featureVersionOf(JavaRuntimes.newest()) >= Runtime.version().feature());
    }

    private Path home(String name, String version) throws IOException {
        Path home = dir.resolve(name);
        Path java = home.resolve("bin").resolve("java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\n");
        java.toFile().setExecutable(true);
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }
}
