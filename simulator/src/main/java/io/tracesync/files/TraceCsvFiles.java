package io.tracesync.files;

import io.tracesync.avro.TraceEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The trace files of many nodes ({@link TraceCsv}, {@code DIR/NODE.csv}), written through per-node memory buffers: when
 * all buffers together exceed the budget, every non-empty one is appended to its file (opened, written, closed), so at
 * most one file is open at any time — 10,000 nodes need no raised open-file limit — and memory stays under the budget
 * plus one line per node. Every file starts with the header line (a file already there is replaced); a node without
 * events gets the header only.
 */
public final class TraceCsvFiles implements AutoCloseable {

    private static final String HEADER = TraceCsv.HEADER + "\n";

    private final Path dir;
    private final String[] names;
    private final long budget;
    private final byte[][] buffers;
    private final int[] lengths;
    private final boolean[] created;
    private final Map<String, Integer> index = new HashMap<>();
    private long buffered;

    /** Files {@code dir/NAME.csv} for the given node names, buffered up to {@code budget} bytes in all. */
    public TraceCsvFiles(Path dir, String[] names, long budget) throws IOException {
        Files.createDirectories(dir);
        this.dir = dir;
        this.names = names.clone();
        this.budget = budget;
        this.buffers = new byte[names.length][];
        this.lengths = new int[names.length];
        this.created = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            index.put(names[i], i);
        }
    }

    public static Path file(Path dir, String node) {
        return dir.resolve(node + ".csv");
    }

    /** Appends an event to its node's file. */
    public void write(TraceEvent e) throws IOException {
        Integer i = index.get(e.getNode());
        if (i == null) {
            throw new IllegalArgumentException("no file for node " + e.getNode());
        }
        append(i, TraceCsv.format(e));
    }

    /** Appends one line (ASCII, newline included, {@link TraceCsv#appendLine}) to node {@code i}'s file. */
    public void append(int i, CharSequence line) throws IOException {
        int n = line.length();
        if (buffers[i] == null) {
            buffers[i] = new byte[Math.max(256, n)];
        }
        if (lengths[i] + n > buffers[i].length) {
            byte[] grown = new byte[Math.max(lengths[i] + n, 2 * buffers[i].length)];
            System.arraycopy(buffers[i], 0, grown, 0, lengths[i]);
            buffers[i] = grown;
        }
        byte[] b = buffers[i];
        int at = lengths[i];
        for (int k = 0; k < n; k++) {
            b[at + k] = (byte) line.charAt(k);
        }
        lengths[i] = at + n;
        buffered += n;
        if (buffered > budget) {
            flush();
        }
    }

    private void flush() throws IOException {
        for (int i = 0; i < names.length; i++) {
            if (lengths[i] > 0 || !created[i]) {
                write(i);
            }
        }
        buffered = 0;
    }

    private void write(int i) throws IOException {
        try (OutputStream out = Files.newOutputStream(file(dir, names[i]), StandardOpenOption.CREATE,
                created[i] ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            if (!created[i]) {
                out.write(HEADER.getBytes(StandardCharsets.US_ASCII));
                created[i] = true;
            }
            if (lengths[i] > 0) {
                out.write(buffers[i], 0, lengths[i]);
            }
        }
        lengths[i] = 0;
        buffers[i] = null;
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
