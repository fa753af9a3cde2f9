package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalRegistryDistributionTest {
    @TempDir
    Path dir;

    @Test
    void unpacksOnceAndLeavesNoTemporaryDirectory() throws IOException {
        Path archive = archive(Map.of("quarkus-run.jar", "launcher", "lib/main/a.jar", "a"));
        Path target = dir.resolve("cache/registry-1");

        assertEquals(target, RegistryDistribution.unpacked(archive, target));
        assertEquals("a", Files.readString(target.resolve("lib/main/a.jar")));
        Files.writeString(target.resolve("marker"), "kept");
        assertEquals(target, RegistryDistribution.unpacked(archive, target));
        assertEquals("kept", Files.readString(target.resolve("marker")));
        try (Stream<Path> cache = Files.list(target.getParent())) {
            assertEquals(List.of(target), cache.toList());
        }
    }

    @Test
    void rejectsAnArchiveWithoutTheLauncherOrWithEntriesOutsideItsRoot() throws IOException {
        Path target = dir.resolve("cache/registry-2");
        assertThrows(IOException.class,
                () -> RegistryDistribution.unpacked(archive(Map.of("lib/a.jar", "a")), target));
        assertThrows(IOException.class, () -> RegistryDistribution.unpacked(
                archive(Map.of("quarkus-run.jar", "x", "../escape", "x")), target));
        assertTrue(Files.notExists(target));
        assertTrue(Files.notExists(dir.resolve("cache/escape")));
    }

    @Test
    void theBuildRecordedTheDistribution() throws IOException {
        EnvironmentArtifacts artifacts = EnvironmentArtifacts.load();
        assertEquals("3.3.3", artifacts.registryVersion());
        assertTrue(artifacts.registryDistribution().toString().endsWith("apicurio-registry-app-3.3.3-all.tar.gz"));
    }

    private Path archive(Map<String, String> files) throws IOException {
        Path archive = Files.createTempFile(dir, "dist", ".tar.gz");
        try (OutputStream out = Files.newOutputStream(archive);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            for (Map.Entry<String, String> file : files.entrySet()) {
                byte[] content = file.getValue().getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey(), true);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return archive;
    }
}
