package io.tracesync.lttng;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BabeltraceTest {

    @TempDir
    Path dir;

    @Test
    void aMissingBabeltraceNamesThePackage() {
        String message = assertThrows(Babeltrace.TraceException.class,
                () -> Babeltrace.locate(dir.toString())).getMessage();
        assertTrue(message.contains("apt-get install babeltrace2"), message);
    }

    @Test
    void theRootCauseOfBabeltracesErrorReport() throws Exception {
        Path err = Files.writeString(dir.resolve("err"), """

                ERROR:    [Babeltrace CLI] (babeltrace2.c:2480)
                  Cannot create components.
                CAUSED BY [src: 'source.ctf.fs'] (fs.c:1204)
                  Cannot create trace for `/tmp/notctf`.
                """);
        assertEquals(": Cannot create trace for `/tmp/notctf`.", Babeltrace.cause(err));
    }

    @Test
    void streamsAreTheFilesBesideTheMetadata() throws Exception {
        Files.writeString(dir.resolve("metadata"), "");
        Files.writeString(dir.resolve("channel0_0"), "");
        Files.createDirectories(dir.resolve("index"));
        assertEquals(1, Babeltrace.streams(dir));
        Files.writeString(dir.resolve("channel0_1"), "");
        assertEquals(2, Babeltrace.streams(dir));
    }
}
