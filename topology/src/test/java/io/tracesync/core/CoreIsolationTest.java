package io.tracesync.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The algorithm core must be usable without Kafka: no source under io.tracesync.core imports it. */
class CoreIsolationTest {

    @Test
    void coreHasNoKafkaImports() throws IOException {
        Path core = Path.of("src/main/java/io/tracesync/core");
        List<Path> sources;
        try (Stream<Path> s = Files.walk(core)) {
            sources = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertTrue(sources.size() > 5, "found core sources " + sources);
        List<String> offenders = sources.stream().filter(p -> {
            try {
                return Files.readAllLines(p).stream().anyMatch(l -> l.matches("import\\s+(static\\s+)?org\\.apache\\.kafka.*"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).map(Path::toString).toList();
        assertEquals(List.of(), offenders);
    }
}
