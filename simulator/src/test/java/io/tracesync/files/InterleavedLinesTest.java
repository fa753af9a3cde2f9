package io.tracesync.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterleavedLinesTest {

    @TempDir
    Path dir;

    @Test
    void everyLineOnceInItsFilesOrderTheFilesAdvancingTogether() throws Exception {
        // a: 1,000 short lines; b: 500 lines twice as long; c: empty — the same span of bytes
        StringBuilder a = new StringBuilder(TraceCsv.HEADER + "\n");
        StringBuilder b = new StringBuilder(TraceCsv.HEADER + "\n");
        for (int i = 0; i < 1000; i++) {
            a.append("a,").append(1_000_000 + i).append(",SEND,,,,,0,0,PA\n");
            if (i % 2 == 0) {
                b.append("b,").append(1_000_000 + i).append(",RECV,10.0.0.1,10.0.0.2,,,0,0,PA\n");
            }
        }
        List<Path> files = List.of(Files.writeString(dir.resolve("a.csv"), a),
                Files.writeString(dir.resolve("b.csv"), b), Files.writeString(dir.resolve("c.csv"), ""));
        long sizeA = Files.size(files.get(0));
        long sizeB = Files.size(files.get(1));
        List<String> events = new ArrayList<>();
        Map<Path, Long> lastLine = new HashMap<>();
        Map<Path, Long> read = new HashMap<>();
        double[] maxGap = {0};
        InterleavedLines.read(files, (f, line) -> {
            assertEquals(lastLine.getOrDefault(f, 0L) + 1, line.number(), f.toString());
            lastLine.put(f, line.number());
            read.merge(f, line.bytes(), Long::sum);
            if (line.event() != null) {
                events.add(line.event().getNode() + line.event().getTsNs());
            }
            double gap = Math.abs(read.getOrDefault(files.get(0), 0L) / (double) sizeA
                    - read.getOrDefault(files.get(1), 0L) / (double) sizeB);
            maxGap[0] = Math.max(maxGap[0], gap);
        });
        assertEquals(1500, events.size());
        assertEquals(Map.of(files.get(0), sizeA, files.get(1), sizeB), read);
        // at every point, the two files are about equally far through: at most a run of 32 lines of b apart
        double run = 32.0 * b.toString().lines().skip(1).findFirst().orElseThrow().length() / sizeB;
        assertTrue(maxGap[0] <= run * 1.1, "gap " + maxGap[0] + ", a run " + run);
    }
}
