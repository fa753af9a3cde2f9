package io.tracesync.lttng;

import io.tracesync.avro.TraceEvent;
import io.tracesync.console.UserError;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.StartupCheck;
import io.tracesync.core.link.SendReceive;
import io.tracesync.files.PairsCsv;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceCsvFiles;
import io.tracesync.files.TraceFiles;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * LTTng kernel traces (CTF) into the trace topics, read through babeltrace2 ({@link Babeltrace}) and decoded by
 * {@link PacketDecoder}; optionally also into per-node trace files ({@code eventsOut}, {@link TraceCsvFiles}) and
 * matched pairs for {@code sync-pairs} ({@code pairsOut}, {@link FirstSendReceive}). Two passes as
 * {@code import csv}: the first checks every line, the second writes, the traces read together, each event taken
 * from the trace least far through its own clock, so that a send and its receive reach the topics close together.
 */
public final class LttngImport {

    /** What to import and where to. */
    public record Options(List<Path> dirs, String node, Path eventsOut, Path pairsOut, boolean filesOnly) {
    }

    /** Bad lines listed before the import stops; the rest are counted. */
    private static final int LISTED = 20;
    private static final long EVENT_BUFFER_BYTES = 16L << 20;

    private final Options options;
    private final Settings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    public LttngImport(Options options, Settings settings, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** One trace being read: its node, decoder, babeltrace2 output and next event. */
    private static final class Source {
        final Path trace;
        final String node;
        final long frequency;
        Babeltrace.Lines lines;
        PacketDecoder decoder;
        long start = -1;
        TraceEvent next;

        Source(Path trace, String node, long frequency) {
            this.trace = trace;
            this.node = node;
            this.frequency = frequency;
        }

        void open(Babeltrace babeltrace) {
            lines = babeltrace.lines(trace);
            decoder = new PacketDecoder(node, frequency);
        }

        /** Advances to the next packet event (null at the end); bad lines go to {@code bad} as TRACE:LINE: reason. */
        TraceEvent advance(Consumer<String> bad) {
            String text;
            next = null;
            while (next == null && (text = lines.next()) != null) {
                try {
                    PrettyLine line = PrettyLine.parse(text);
                    if (start < 0) {
                        start = line.cycles();
                    }
                    next = decoder.decode(line);
                } catch (PrettyLine.BadLine e) {
                    bad.accept(trace + ":" + lines.number() + ": " + e.getMessage());
                }
            }
            return next;
        }

        /** How far through its trace the next event is, by the trace's own clock. */
        long through() {
            return next.getTsNs() - decoder.nanoseconds(start);
        }
    }

    /** Runs the import: 0 when done, 1 when Kafka refused the events, 2 for bad input (reported). */
    public int run() throws IOException {
        try {
            if (options.filesOnly() && options.eventsOut() == null && options.pairsOut() == null) {
                throw new TraceFiles.InputException("--files-only needs --events-out or --pairs-out");
            }
            List<Path> traces = traces(options.dirs());
            if (options.node() != null && traces.size() > 1) {
                throw new TraceFiles.InputException("--node names the node of one trace, but " + traces.size()
                        + " traces were found: " + traces);
            }
            Babeltrace babeltrace = Babeltrace.locate();
            List<Source> sources = new ArrayList<>();
            for (Path t : traces) {
                Babeltrace.Metadata m = babeltrace.metadata(t);
                String name = options.node() != null ? options.node() : m.hostname();
                if (name == null || !TraceCsv.NODE.matcher(name).matches()) {
                    throw new TraceFiles.InputException(t + ": " + (name == null ? "no hostname in the trace's "
                            + "environment" : "hostname '" + name + "' cannot name a topic (1 to 200 letters, "
                            + "digits, '.', '_', '-')") + "; name the node with --node");
                }
                sources.add(new Source(t, name, m.frequency()));
            }
            Map<String, Long> perNode = new TreeMap<>();
            if (!check(babeltrace, sources, perNode)) {
                return 2;
            }
            return load(babeltrace, sources, perNode);
        } catch (TraceFiles.InputException | Babeltrace.TraceException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** The first pass: every line read, packet events counted per node; none bad? */
    private boolean check(Babeltrace babeltrace, List<Source> sources, Map<String, Long> perNode) {
        long[] bad = {0};
        Consumer<String> report = location -> {
            if (++bad[0] <= LISTED) {
                err.println(location);
            }
        };
        try (ProgressBar.Meter bar = ProgressBar.meter(sources.size(), err, "checking")) {
            for (int i = 0; i < sources.size(); i++) {
                Source s = sources.get(i);
                perNode.putIfAbsent(s.node, 0L);
                s.open(babeltrace);
                try (Babeltrace.Lines lines = s.lines) {
                    while (s.advance(report) != null) {
                        perNode.merge(s.node, 1L, Long::sum);
                    }
                }
                bar.update(i + 1);
            }
        }
        if (bad[0] > 0) {
            err.printf(Locale.ROOT, "error: %s%,d bad line(s): nothing imported%n", bad[0] > LISTED
                    ? String.format(Locale.ROOT, "... and %,d more; ", bad[0] - LISTED) : "", bad[0]);
        } else if (perNode.values().stream().allMatch(n -> n == 0)) {
            err.println(sources.get(0).trace + (sources.size() > 1 ? " and the other traces" : "")
                    + ": no packet events (inet_sock_local_out/in, or net_dev_queue/netif_receive_skb with TCP "
                    + "headers): is the kernel tracer's network instrumentation enabled?");
            bad[0] = 1;
        }
        err.flush();
        return bad[0] == 0;
    }

    /** The second pass: Kafka and the files; 1 if Kafka refused the events. */
    private int load(Babeltrace babeltrace, List<Source> sources, Map<String, Long> perNode) throws IOException {
        if (!options.filesOnly()) {
            StartupCheck.run(settings, err);
        }
        long total = perNode.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> directions = new TreeMap<>();
        Map<String, String> topics = new TreeMap<>();
        long start = System.nanoTime();
        PriorityQueue<Source> next = new PriorityQueue<>(Comparator.comparingLong(Source::through));
        try (TraceTopicWriter writer = options.filesOnly() ? null : new TraceTopicWriter(settings);
                TraceCsvFiles events = options.eventsOut() == null ? null : new TraceCsvFiles(options.eventsOut(),
                        perNode.keySet().toArray(String[]::new), EVENT_BUFFER_BYTES);
                Writer pairs = options.pairsOut() == null ? null
                        : Files.newBufferedWriter(options.pairsOut(), StandardCharsets.UTF_8);
                ProgressBar.Meter bar = ProgressBar.meter(total, err, "importing")) {
            if (writer != null) {
                writer.createTopics(perNode.keySet());
                perNode.keySet().forEach(n -> topics.put(n, writer.topicOf(n)));
            }
            if (pairs != null) {
                pairs.write(PairsCsv.HEADER + "\n");
            }
            FirstSendReceive matcher = new FirstSendReceive(p -> {
                directions.merge(p.sender() + " -> " + p.receiver(), 1L, Long::sum);
                if (pairs != null) {
                    write(pairs, p);
                }
            });
            for (Source s : sources) {
                s.open(babeltrace);
                if (s.advance(location -> {
                    throw new TraceFiles.InputException(location + " (the trace changed since it was checked)");
                }) != null) {
                    next.add(s);
                }
            }
            long done = 0;
            Source s;
            while ((s = next.poll()) != null) {
                TraceEvent e = s.next;
                if (writer != null) {
                    writer.write(e);
                }
                if (events != null) {
                    events.write(e);
                }
                matcher.accept(e);
                bar.update(++done);
                if (s.advance(location -> {
                    throw new TraceFiles.InputException(location + " (the trace changed since it was checked)");
                }) != null) {
                    next.add(s);
                }
            }
            if (writer != null) {
                writer.flush();
            }
        } catch (IllegalStateException e) {
            err.println("error: import failed: " + e.getMessage());
            return 1;
        } finally {
            sources.stream().filter(src -> src.lines != null).forEach(src -> src.lines.close());
        }
        summary(perNode, topics, directions, sources.size(),
                (System.nanoTime() - start) / 1e9);
        return 0;
    }

    private static void write(Writer out, SendReceive p) {
        try {
            out.append(PairsCsv.appendLine(new StringBuilder(64), p.sender(), p.sendNs(), p.receiver(), p.recvNs())
                    .append('\n'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Events per node (and topic, when written to Kafka), then matched pairs per direction. */
    private void summary(Map<String, Long> perNode, Map<String, String> topics,
            Map<String, Long> directions, int traces, double seconds) {
        long events = perNode.values().stream().mapToLong(Long::longValue).sum();
        out.printf(Locale.ROOT, "%s %,d packet events of %,d nodes from %,d trace(s) in %.1f s%n",
                options.filesOnly() ? "read" : "imported", events, perNode.size(), traces, seconds);
        out.printf("%-20s %12s%s%n", "node", "events", topics.isEmpty() ? "" : "  topic");
        perNode.forEach((n, c) -> out.printf(Locale.ROOT, "%-20s %,12d%s%n", n, c,
                topics.isEmpty() ? "" : "  " + topics.get(n)));
        out.printf(Locale.ROOT, "%,d matched pair(s)%s%n", directions.values().stream().mapToLong(Long::longValue)
                .sum(), options.pairsOut() == null ? "" : " in " + options.pairsOut());
        directions.forEach((d, c) -> out.printf(Locale.ROOT, "  %-40s %,10d%n", d, c));
        out.flush();
    }

    /** The trace directories named: each a directory with a metadata file, or one holding such directories. */
    public static List<Path> traces(List<Path> dirs) throws IOException {
        Set<Path> out = new LinkedHashSet<>();
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) {
                throw new TraceFiles.InputException(d + ": " + (Files.exists(d) ? "not a directory"
                        : "no such file or directory"));
            }
            try (Stream<Path> s = Files.walk(d)) {
                List<Path> found = s.filter(f -> f.getFileName() != null
                        && f.getFileName().toString().equals("metadata") && Files.isRegularFile(f))
                        .map(f -> f.getParent().toAbsolutePath().normalize()).sorted().toList();
                if (found.isEmpty()) {
                    throw new TraceFiles.InputException(d + ": no CTF trace (no directory with a metadata file)");
                }
                out.addAll(found);
            }
        }
        return new ArrayList<>(out);
    }
}
