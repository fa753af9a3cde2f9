package io.tracesync.client.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RewriterOptionsTest {

    @TempDir
    Path dir;

    @Test
    void theFileThenDefinesThenFlagsAndTheDefaults() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\nbootstrap.servers=file:1\nfactors.topic=f\n");
        RewriterOptions o = RewriterOptions.parse("--input", "in", "--output", "out", "--config", file.toString(),
                "-D", "bootstrap.servers=define:2", "-Dsasl.mechanism=SCRAM-SHA-512", "--bootstrap-servers",
                "flag:3", "--to-end", "--catch-up-seconds", "5");
        assertEquals("SASL_SSL", o.client().get("security.protocol"));
        assertEquals("SCRAM-SHA-512", o.client().get("sasl.mechanism"));
        assertEquals("flag:3", o.client().get("bootstrap.servers"));
        assertEquals("f", o.client().get("factors.topic"));
        assertEquals("http://127.0.0.1:8081/apis/ccompat/v7", o.client().get("schema.registry.url"));
        assertEquals("in", o.input());
        assertEquals("out", o.output());
        assertEquals("tracesync-timestamp-rewriter", o.groupId());
        assertEquals(Duration.ofSeconds(5), o.catchUp());
        assertTrue(o.toEnd());
    }

    @Test
    void helpAndBadCommandLines() throws Exception {
        assertNull(RewriterOptions.parse("--input", "in", "--help"));
        assertTrue(RewriterOptions.USAGE.contains("--factors-topic"));
        assertEquals("--input and --output are required",
                assertThrows(RewriterOptions.UsageException.class, () -> RewriterOptions.parse("--input", "in"))
                        .getMessage());
        assertEquals("unknown option --frobnicate", assertThrows(RewriterOptions.UsageException.class,
                () -> RewriterOptions.parse("--frobnicate")).getMessage());
        assertEquals("--output needs a value", assertThrows(RewriterOptions.UsageException.class,
                () -> RewriterOptions.parse("--input", "in", "--output")).getMessage());
        assertEquals("-D takes KEY=VALUE, not novalue", assertThrows(RewriterOptions.UsageException.class,
                () -> RewriterOptions.parse("-D", "novalue")).getMessage());
        assertThrows(RewriterOptions.UsageException.class,
                () -> RewriterOptions.parse("--catch-up-seconds", "-1"));
    }
}
