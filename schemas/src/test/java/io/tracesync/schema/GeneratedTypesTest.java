package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class GeneratedTypesTest {

    @Test
    void everySchemaFileHasItsClassListed() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/avro"))) {
            assertEquals(files.map(f -> f.getFileName().toString().replace(".avsc", "")).collect(Collectors.toSet()),
                    GeneratedTypes.ALL.stream().map(Class::getSimpleName).collect(Collectors.toSet()));
        }
    }
}
