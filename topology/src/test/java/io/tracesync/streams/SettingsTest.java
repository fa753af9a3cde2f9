package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Defaults, then the file, then TRACESYNC_ variables, then flags; typed getters say which key is wrong. */
class SettingsTest {

    @TempDir
    Path dir;

    @Test
    void eachLayerOverridesTheOneBefore() throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "commit.interval.ms = 300\nlinks.min.change=0.5\nfactors.emit.interval=2s\n");
        Settings s = Settings.load(file,
                Map.of("TRACESYNC_LINKS_MIN_CHANGE", "0.25", "TRACESYNC_BOOTSTRAP", "127.0.0.1:19092",
                        "HOME", "/root", "TRACESYNC_REGISTRY_URL", "http://127.0.0.1:1/apis/ccompat/v7"),
                Map.of("factors.emit.interval", "50ms"));
        assertEquals("300", s.get("commit.interval.ms"), "from the file");
        assertEquals(0.25, s.number("links.min.change"), "the environment over the file");
        assertEquals(Duration.ofMillis(50), s.duration("factors.emit.interval"), "the flag over the file");
        assertEquals("127.0.0.1:19092", s.get("bootstrap.servers"), "TRACESYNC_BOOTSTRAP");
        assertEquals("http://127.0.0.1:1/apis/ccompat/v7", s.get("schema.registry.url"), "TRACESYNC_REGISTRY_URL");
        assertEquals("3", s.get("topics.partitions"), "a default");
        assertEquals(null, s.get("home"), "variables without the prefix are not settings");
    }

    @Test
    void typedGettersNameTheKeyTheyCannotRead() {
        Settings s = Settings.of(Map.of("traces.partitioned.by.segment", "yes", "topics.partitions", "three",
                "links.min.change", "1 %", "matcher.rotation", "soon"));
        assertEquals("traces.partitioned.by.segment: 'yes' is neither true nor false",
                assertThrows(IllegalArgumentException.class, () -> s.bool("traces.partitioned.by.segment"))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.integer("topics.partitions"))
                .getMessage().startsWith("topics.partitions: "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.number("links.min.change"))
                .getMessage().startsWith("links.min.change: "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.duration("matcher.rotation"))
                .getMessage().startsWith("matcher.rotation: "));
        assertFalse(Settings.of(Map.of()).bool("links.with.network"), "the shortcuts are off by default");
        assertFalse(Settings.of(Map.of()).bool("traces.partitioned.by.segment"));
        assertEquals(1_000_000, Settings.of(Map.of("matcher.max.pending", "1_000_000")).integer("matcher.max.pending"));
    }

    @Test
    void describeHidesSecrets() {
        String printed = Settings.of(Map.of("sasl.jaas.config", "org.apache...ScramLoginModule required"
                + " username=\"u\" password=\"p4ss\";", "ssl.truststore.password", "t4ss",
                "basic.auth.user.info", "u:s3cret")).describe();
        assertTrue(printed.contains("sasl.jaas.config = [hidden]"), printed);
        assertTrue(printed.contains("ssl.truststore.password = [hidden]"), printed);
        assertTrue(printed.contains("basic.auth.user.info = [hidden]"), printed);
        assertFalse(printed.contains("p4ss") || printed.contains("t4ss") || printed.contains("s3cret"), printed);
        assertTrue(printed.contains("topics.partitions = 3"), printed);
    }
}
