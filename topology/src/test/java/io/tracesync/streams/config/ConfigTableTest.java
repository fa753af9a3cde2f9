package io.tracesync.streams.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/STREAMS.md's key tables are the ones {@link ConfigTable} generates from the declarations. When a key
 * changes, regenerate them with
 * {@code ./mvnw -pl topology surefire:test -Dtest=ConfigTableTest -Dtracesync.docs.update=true}.
 */
class ConfigTableTest {

    private static final Path DOC = Path.of("..", "docs", "STREAMS.md");

    @Test
    void theTablesOfTheDocsAreGeneratedFromTheDeclarations() throws IOException {
        String doc = Files.readString(DOC);
        String generated = Generated.replace(Generated.replace(doc, "tracesync-keys", ConfigTable.tracesyncKeys()),
                "kafka-defaults", ConfigTable.kafkaDefaults(Settings.KAFKA_DEFAULTS));
        if (Boolean.getBoolean("tracesync.docs.update")) {
            Files.writeString(DOC, generated);
            doc = generated;
        }
        assertEquals(generated.lines().toList(), doc.lines().toList(), "docs/STREAMS.md is stale: regenerate "
                + "it with ./mvnw -pl topology surefire:test -Dtest=ConfigTableTest -Dtracesync.docs.update=true");
    }

    @Test
    void everyDeclaredKeyHasADefaultThatValidatesAndADocumentation() {
        new TracesyncConfig(Settings.DEFAULTS);
        TracesyncConfig.CONFIG.configKeys().values().forEach(k -> {
            assertTrue(k.documentation != null && k.documentation.endsWith("."), k.name);
            assertTrue(Settings.DEFAULTS.containsKey(k.name), k.name);
        });
    }

    /** A generated part of a document, between {@code <!-- generated: NAME -->} and {@code <!-- end: NAME -->}. */
    static final class Generated {

        private Generated() {
        }

        static String replace(String doc, String name, String content) {
            String begin = "<!-- generated: " + name + " -->\n";
            String end = "<!-- end: " + name + " -->";
            int from = doc.indexOf(begin);
            int to = doc.indexOf(end);
            assertTrue(from >= 0 && to > from, "no " + begin.strip() + " … " + end + " in " + DOC);
            return doc.substring(0, from + begin.length()) + content + doc.substring(to);
        }
    }
}
