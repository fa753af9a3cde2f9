package io.tracesync.csv;

import io.tracesync.avro.TraceEvent;
import io.tracesync.console.UserError;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.StartupCheck;
import io.tracesync.files.InterleavedLines;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceFiles;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Trace files ({@link TraceCsv}) into the trace topics, in two passes. The first checks every line and collects the
 * nodes, whose topics are then created at once; the second writes, the files interleaved ({@link InterleavedLines})
 * so that each send reaches the topics close to its receive. All or nothing by default: one bad line means nothing
 * is written; with {@code skipBadLines} the good lines are written and every other one is listed.
 */
public final class CsvImport {

    /** Bad lines listed when they stop the import; the rest are counted. */
    private static final int LISTED = 20;

    private final List<Path> paths;
    private final boolean skipBadLines;
    private final Settings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    /** {@code paths}: trace files, or directories of them ({@link TraceFiles#resolve}). */
    public CsvImport(List<Path> paths, boolean skipBadLines, Settings settings, PrintWriter out, PrintWriter err) {
        this.paths = paths;
        this.skipBadLines = skipBadLines;
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** Runs the import: 0 when done, 1 when Kafka refused the events, 2 for bad input (reported). */
    public int run() throws IOException {
        try {
            List<Path> files = TraceFiles.resolve(paths);
            long bytes = 0;
            for (Path f : files) {
                bytes += Files.size(f);
            }
            Set<String> nodes = new TreeSet<>();
            return check(files, bytes, nodes) || skipBadLines ? load(files, bytes, nodes) : 2;
        } catch (TraceFiles.InputException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** The first pass: collects the nodes, lists the first bad lines unless they are to be skipped; none bad? */
    private boolean check(List<Path> files, long bytes, Set<String> nodes) {
        long[] bad = {0};
        scan(files, false, bytes, err, "checking", e -> nodes.add(e.getNode()), location -> {
            if (++bad[0] <= LISTED && !skipBadLines) {
                err.println(location);
            }
        });
        if (bad[0] > 0 && !skipBadLines) {
            err.printf(Locale.ROOT,
                    "error: %s%,d bad line(s): nothing imported (--skip-bad-lines imports the others)%n",
                    bad[0] > LISTED ? String.format(Locale.ROOT, "... and %,d more; ", bad[0] - LISTED) : "",
                    bad[0]);
            err.flush();
        }
        return bad[0] == 0;
    }

    /** The second pass: creates the nodes' topics and writes the events; 1 if Kafka refused them. */
    private int load(List<Path> files, long bytes, Set<String> nodes) {
        Map<String, Long> perNode = new TreeMap<>();
        long[] skipped = {0};
        long start = System.nanoTime();
        StartupCheck.run(settings, err);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(nodes);
            scan(files, true, bytes, err, "importing", e -> {
                writer.write(e);
                perNode.merge(e.getNode(), 1L, Long::sum);
            }, location -> {
                if (!skipBadLines) {
                    throw new TraceFiles.InputException(location + " (the file changed since it was checked)");
                }
                skipped[0]++;
                err.println(location);
            });
            writer.flush();
            summary(writer, perNode, files.size(), skipped[0],
                    (System.nanoTime() - start) / 1e9);
            return 0;
        } catch (IllegalStateException e) {
            err.println("error: import failed: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Reads every file, one after the other or {@link InterleavedLines interleaved}, with a bar by bytes: events to
     * {@code events}, bad lines as "FILE:LINE: reason" to {@code bad}.
     */
    private static void scan(List<Path> files, boolean interleaved, long bytes, PrintWriter err, String label,
            Consumer<TraceEvent> events, Consumer<String> bad) {
        long[] done = {0};
        try (ProgressBar.Meter bar = ProgressBar.meter(bytes, err, label)) {
            BiConsumer<Path, TraceCsv.Line> sink = (f, line) -> {
                if (line.event() != null) {
                    events.accept(line.event());
                } else if (line.error() != null) {
                    bad.accept(f + ":" + line.number() + ": " + line.error());
                }
                done[0] += line.bytes();
                bar.update(done[0]);
            };
            if (interleaved) {
                try {
                    InterleavedLines.read(files, sink);
                } catch (IOException e) {
                    throw new TraceFiles.InputException(e.getMessage());
                }
                return;
            }
            for (Path f : files) {
                try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.ISO_8859_1)) {
                    TraceCsv.read(in, line -> sink.accept(f, line));
                } catch (IOException e) {
                    throw new TraceFiles.InputException(f + ": " + e.getMessage());
                }
            }
        }
    }

    private void summary(TraceTopicWriter writer, Map<String, Long> perNode, int files,
            long skipped, double seconds) {
        long events = perNode.values().stream().mapToLong(Long::longValue).sum();
        long topics = perNode.keySet().stream().map(writer::topicOf).distinct().count();
        out.printf(Locale.ROOT, "imported %,d events of %,d nodes from %,d file(s) into %,d topic(s) in %.1f s "
                + "(%,.0f events/s)%s%n", events, perNode.size(), files, topics, seconds, events / seconds,
                skipped > 0 ? String.format(Locale.ROOT, "; %,d bad line(s) skipped, listed on stderr", skipped)
                        : "");
        out.printf("%-20s %12s  %s%n", "node", "events", "topic");
        perNode.forEach((node, n) -> out.printf(Locale.ROOT, "%-20s %,12d  %s%n", node, n, writer.topicOf(node)));
        out.flush();
    }
}
