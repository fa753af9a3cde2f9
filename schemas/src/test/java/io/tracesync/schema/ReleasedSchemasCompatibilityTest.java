package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParseException;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every current schema reads what its released versions wrote (BACKWARD compatibility), and key schemas never
 * change. Releases are the folders of {@code src/test/resources/released}, one .avsc per record type.
 */
class ReleasedSchemasCompatibilityTest {

    @TestFactory
    Stream<DynamicTest> currentSchemasReadEveryRelease() throws IOException, URISyntaxException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path release : releases()) {
            for (Schema released : parse(release)) {
                tests.add(DynamicTest.dynamicTest(release.getFileName() + " " + released.getName(), () -> {
                    Schema current = current(released);
                    SchemaCompatibility.SchemaPairCompatibility result =
                            SchemaCompatibility.checkReaderWriterCompatibility(current, released);
                    assertEquals(SchemaCompatibilityType.COMPATIBLE, result.getType(),
                            () -> "current " + current.getName() + " cannot read data written with "
                                    + release.getFileName() + ": " + result.getResult().getIncompatibilities());
                }));
            }
        }
        assertFalse(tests.isEmpty(), "no released schemas found");
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> keySchemasNeverChange() throws IOException, URISyntaxException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path release : releases()) {
            for (Schema released : parse(release)) {
                if (GeneratedTypes.KEYS.stream().anyMatch(k -> k.getName().equals(released.getFullName()))) {
                    tests.add(DynamicTest.dynamicTest(release.getFileName() + " " + released.getName(),
                            () -> assertEquals(SchemaNormalization.toParsingForm(released),
                                    SchemaNormalization.toParsingForm(current(released)),
                                    "a key schema changed: keys' bytes decide partitions and joins")));
                }
            }
        }
        assertEquals(GeneratedTypes.KEYS.size() * releases().size(), tests.size());
        return tests.stream();
    }

    /**
     * The factors topic is read by services outside this repository, which upgrade on their own schedule: every
     * released SyncFactor schema reads what the current one writes (FORWARD as well as BACKWARD).
     */
    @TestFactory
    Stream<DynamicTest> releasedFactorReadersReadCurrentFactors() throws IOException, URISyntaxException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path release : releases()) {
            for (Schema released : parse(release)) {
                if (released.getFullName().equals(SyncFactor.getClassSchema().getFullName())) {
                    tests.add(DynamicTest.dynamicTest(release.getFileName() + " " + released.getName(), () -> {
                        SchemaCompatibility.SchemaPairCompatibility result = SchemaCompatibility
                                .checkReaderWriterCompatibility(released, SyncFactor.getClassSchema());
                        assertEquals(SchemaCompatibilityType.COMPATIBLE, result.getType(),
                                () -> release.getFileName() + " readers cannot read current factors: "
                                        + result.getResult().getIncompatibilities());
                    }));
                }
            }
        }
        assertEquals(releases().size(), tests.size(), "every release has a SyncFactor schema");
        return tests.stream();
    }

    @Test
    void theCheckCatchesANewFieldWithoutDefault() throws IOException, URISyntaxException {
        Schema v1 = parse(releases().get(0)).stream().filter(s -> s.getName().equals("TraceEvent")).findFirst()
                .orElseThrow();
        String json = TraceEvent.getClassSchema().toString();
        Schema breaking = new Schema.Parser().parse(json.substring(0, json.length() - 2)
                + ",{\"name\":\"window\",\"type\":\"int\"}]}");
        assertEquals(SchemaCompatibilityType.INCOMPATIBLE,
                SchemaCompatibility.checkReaderWriterCompatibility(breaking, v1).getType());
    }

    private static Schema current(Schema released) {
        Class<?> type = SpecificData.get().getClass(released);
        assertNotNull(type, released.getFullName() + " was released but has no generated class any more");
        return SpecificData.get().getSchema(type);
    }

    private static List<Path> releases() throws IOException, URISyntaxException {
        Path root = Path.of(ReleasedSchemasCompatibilityTest.class.getResource("/released").toURI());
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** The schemas of a release's files, in any order: a file naming a type of another waits for it. */
    private static List<Schema> parse(Path release) throws IOException {
        List<Path> pending;
        try (Stream<Path> files = Files.list(release)) {
            pending = new ArrayList<>(files.filter(f -> f.toString().endsWith(".avsc")).sorted().toList());
        }
        Map<String, Schema> named = new HashMap<>();
        List<Schema> schemas = new ArrayList<>();
        while (!pending.isEmpty()) {
            int before = pending.size();
            for (Path file : List.copyOf(pending)) {
                Schema.Parser parser = new Schema.Parser();
                parser.addTypes(named.values());
                try {
                    schemas.add(parser.parse(file.toFile()));
                } catch (SchemaParseException unresolved) {
                    continue;
                }
                named.putAll(parser.getTypes());
                pending.remove(file);
            }
            if (pending.size() == before) {
                throw new IllegalStateException("cannot parse " + pending + " of " + release);
            }
        }
        return schemas;
    }
}
