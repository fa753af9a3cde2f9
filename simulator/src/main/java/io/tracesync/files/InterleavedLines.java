package io.tracesync.files;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;

/**
 * The lines of several trace files at once, always the next from the file least far through (by bytes). Each node's
 * file spans the same stretch of true time, so the lines come out close to their true-time order whatever each
 * node's clock says: a send and its receive, in two files, are written to their topics close together instead of
 * a whole file apart, and the application's matcher (which expires unmatched events by wall-clock time) meets both.
 * One file open per trace file, with read buffers that shrink as files are added (64 KiB each up to 1,024 files).
 */
public final class InterleavedLines {

    private static final long BUFFERS = 64L << 20;
    /** Lines taken from a file before the next choice: fewer queue operations, the order hardly coarser. */
    private static final int RUN = 32;

    private InterleavedLines() {
    }

    private static final class Cursor {
        final Path file;
        final BufferedReader in;
        final double size;
        long read;
        long number;

        Cursor(Path file, BufferedReader in, long size) {
            this.file = file;
            this.in = in;
            this.size = size;
        }

        double through() {
            return read / size;
        }
    }

    /** Calls {@code sink} with every line of every file, each file's lines in their order. */
    public static void read(List<Path> files, BiConsumer<Path, TraceCsv.Line> sink) throws IOException {
        int buffer = (int) Math.max(1 << 10, Math.min(1 << 16, BUFFERS / Math.max(1, files.size())));
        PriorityQueue<Cursor> next = new PriorityQueue<>(Comparator.comparingDouble(Cursor::through));
        List<BufferedReader> open = new ArrayList<>();
        try {
            for (Path f : files) {
                long size = Files.size(f);
                if (size > 0) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(Files.newInputStream(f),
                            StandardCharsets.ISO_8859_1), buffer);
                    open.add(in);
                    next.add(new Cursor(f, in, size));
                }
            }
            Cursor c;
            while ((c = next.poll()) != null) {
                String text = null;
                for (int i = 0; i < RUN && (text = readLine(c)) != null; i++) {
                    TraceCsv.Line line = TraceCsv.line(++c.number, text);
                    c.read += line.bytes();
                    sink.accept(c.file, line);
                }
                if (text != null) {
                    next.add(c);
                }
            }
        } finally {
            for (BufferedReader in : open) {
                in.close();
            }
        }
    }

    private static String readLine(Cursor c) throws IOException {
        try {
            return c.in.readLine();
        } catch (IOException e) {
            throw new IOException(c.file + ":" + (c.number + 1) + ": " + e.getMessage(), e);
        }
    }
}
