package io.tracesync.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFilesTest {

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }

    @Test
    void aRunDirectoryIsItsEventFilesByName() throws IOException {
        Path run = dir.resolve("run");
        file("run/pairs.csv", "sender,send_ns,receiver,recv_ns\n");
        Path b = file("run/events/n0002.csv", TraceCsv.HEADER + "\n");
        Path a = file("run/events/n0001.csv", TraceCsv.HEADER + "\n");
        file("run/events/notes.txt", "");
        assertEquals(List.of(a, b), TraceFiles.resolve(List.of(run)));
    }

    @Test
    void aPlainDirectoryIsItsCsvFilesThatStartWithTheHeader() throws IOException {
        Path a = file("traces/a.csv", TraceCsv.HEADER + "\n");
        file("traces/pairs.csv", "sender,send_ns,receiver,recv_ns\n");
        file("traces/empty.csv", "");
        assertEquals(List.of(a), TraceFiles.resolve(List.of(dir.resolve("traces"))));
    }

    @Test
    void filesAreTakenAsTheyAreOnceEachInTheOrderNamed() throws IOException {
        Path b = file("b.csv", "no header needed\n");
        Path a = file("a.csv", "");
        assertEquals(List.of(b, a), TraceFiles.resolve(List.of(b, a, dir.resolve(".").resolve("b.csv"))));
    }

    @Test
    void aMissingPathOrADirectoryWithoutTraceFilesIsNamed() throws IOException {
        Path missing = dir.resolve("missing.csv");
        TraceFiles.InputException e = assertThrows(TraceFiles.InputException.class,
                () -> TraceFiles.resolve(List.of(missing)));
        assertEquals(missing + ": no such file or directory", e.getMessage());
        Path empty = Files.createDirectories(dir.resolve("empty"));
        e = assertThrows(TraceFiles.InputException.class, () -> TraceFiles.resolve(List.of(empty)));
        assertTrue(e.getMessage().startsWith(empty + ": no trace files"), e.getMessage());
    }
}
