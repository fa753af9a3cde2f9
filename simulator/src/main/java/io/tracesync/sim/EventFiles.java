package io.tracesync.sim;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One CSV file per node, written through per-node memory buffers: when all buffers together exceed the budget,
 * every non-empty one is appended to its file (opened, written, closed), so at most one file is open at any time
 * — 10,000 nodes need no raised open-file limit — and memory stays under the budget plus one line per node.
 * Every file starts with the header line; a node without events gets the header only.
 */
final class EventFiles implements AutoCloseable {

    static final String HEADER = "node,ts_ns,direction,saddr,daddr,sport,dport,seq,ack,flags\n";

    private final Path dir;
    private final String[] names;
    private final long budget;
    private final byte[][] buffers;
    private final int[] lengths;
    private final boolean[] created;
    private long buffered;

    /** Files {@code dir/NAME.csv} for the given node names, buffered up to {@code budget} bytes in all. */
    EventFiles(Path dir, String[] names, long budget) throws IOException {
        Files.createDirectories(dir);
        this.dir = dir;
        this.names = names.clone();
        this.budget = budget;
        this.buffers = new byte[names.length][];
        this.lengths = new int[names.length];
        this.created = new boolean[names.length];
    }

    static Path file(Path dir, String node) {
        return dir.resolve(node + ".csv");
    }

    /** Appends one line (ASCII, newline included) to node {@code i}'s file. */
    void append(int i, CharSequence line) throws IOException {
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
                StandardOpenOption.APPEND)) {
            if (!created[i]) {
                out.write(HEADER.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
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
