package io.tracesync.cli;

import io.tracesync.app.ProgressBar;
import io.tracesync.app.SettingsOptions;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.MatchedPair;
import io.tracesync.lttng.Babeltrace;
import io.tracesync.lttng.PacketDecoder;
import io.tracesync.lttng.PrettyLine;
import io.tracesync.streams.TraceTopicWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.nio.ByteBuffer;
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
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code tracesync import lttng}: LTTng kernel traces (CTF) into the trace topics, read through babeltrace2
 * ({@link Babeltrace}) and decoded by {@link PacketDecoder}; optionally also into the simulator's per-node CSV files
 * ({@code --events-out}) and matched pairs for {@code sync-pairs} ({@code --pairs-out}, {@link FirstSendReceive}).
 * Two passes as {@code import csv}: the first checks every line, the second writes, the traces read together,
 * each event taken from the trace least far through its own clock, so that a send and its receive reach the
 * topics close together.
 */
@Command(name = "lttng", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads LTTng kernel traces (CTF, read with Debian's babeltrace2) into the per-node topics "
                + "traces.<node>: inet_sock_local_out/inet_sock_local_in (lttng-modules' network addon; "
                + "addresses and ports from inet_connect/inet_accept) or net_dev_queue/netif_receive_skb with "
                + "TCP headers. The node is the hostname of the trace's environment; timestamps are its raw "
                + "clock in ns.",
                "DIR is a trace directory (with a metadata file) or a directory holding such directories.",
                "A line that cannot be read is reported as TRACE:LINE: reason and nothing is imported (exit "
                        + "code 2).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportLttngCommand implements Callable<Integer> {

    /** Bad lines listed before the import stops; the rest are counted. */
    private static final int LISTED = 20;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node of the (single) trace, instead of its hostname.")
    String node;

    @Option(names = "--events-out", paramLabel = "DIR",
            description = "Also write the events as per-node CSV files (DIR/<node>.csv, the format import csv "
                    + "reads).")
    Path eventsOut;

    @Option(names = "--pairs-out", paramLabel = "FILE",
            description = "Also write the matched pairs (sender,send_ns,receiver,recv_ns) for sync-pairs: first "
                    + "send x first receive per segment and flow, as the application matches.")
    Path pairsOut;

    @Option(names = "--files-only", description = "Write only --events-out/--pairs-out, nothing to Kafka.")
    boolean filesOnly;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "LTTng trace directories.")
    List<Path> dirs;

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

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (filesOnly && eventsOut == null && pairsOut == null) {
                throw new TraceFiles.InputException("--files-only needs --events-out or --pairs-out");
            }
            List<Path> traces = traces(dirs);
            if (node != null && traces.size() > 1) {
                throw new TraceFiles.InputException("--node names the node of one trace, but " + traces.size()
                        + " traces were found: " + traces);
            }
            Babeltrace babeltrace = Babeltrace.locate();
            List<Source> sources = new ArrayList<>();
            for (Path t : traces) {
                Babeltrace.Metadata m = babeltrace.metadata(t);
                String name = node != null ? node : m.hostname();
                if (name == null || !TraceCsv.NODE.matcher(name).matches()) {
                    throw new TraceFiles.InputException(t + ": " + (name == null ? "no hostname in the trace's "
                            + "environment" : "hostname '" + name + "' cannot name a topic (1 to 200 letters, "
                            + "digits, '.', '_', '-')") + "; name the node with --node");
                }
                sources.add(new Source(t, name, m.frequency()));
            }
            Map<String, Long> perNode = new TreeMap<>();
            if (!check(babeltrace, sources, perNode, err)) {
                return 2;
            }
            return load(babeltrace, sources, perNode, err);
        } catch (TraceFiles.InputException | Babeltrace.TraceException e) {
            err.println(e.getMessage());
            return 2;
        }
    }

    /** The first pass: every line read, packet events counted per node; none bad? */
    private boolean check(Babeltrace babeltrace, List<Source> sources, Map<String, Long> perNode, PrintWriter err) {
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
            err.printf(Locale.ROOT, "%s%,d bad line(s): nothing imported%n", bad[0] > LISTED
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
    private int load(Babeltrace babeltrace, List<Source> sources, Map<String, Long> perNode, PrintWriter err)
            throws IOException {
        long total = perNode.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> directions = new TreeMap<>();
        Map<String, String> topics = new TreeMap<>();
        long start = System.nanoTime();
        PriorityQueue<Source> next = new PriorityQueue<>(Comparator.comparingLong(Source::through));
        try (TraceTopicWriter writer = filesOnly ? null : new TraceTopicWriter(options.load());
                EventsCsv events = eventsOut == null ? null : new EventsCsv(eventsOut, perNode.keySet());
                Writer pairs = pairsOut == null ? null : Files.newBufferedWriter(pairsOut, StandardCharsets.UTF_8);
                ProgressBar.Meter bar = ProgressBar.meter(total, err, "importing")) {
            if (writer != null) {
                writer.createTopics(perNode.keySet());
                perNode.keySet().forEach(n -> topics.put(n, writer.topicOf(n)));
            }
            if (pairs != null) {
                pairs.write("sender,send_ns,receiver,recv_ns\n");
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
            err.println("import failed: " + e.getMessage());
            return 1;
        } finally {
            sources.stream().filter(src -> src.lines != null).forEach(src -> src.lines.close());
        }
        summary(spec.commandLine().getOut(), perNode, topics, directions, sources.size(),
                (System.nanoTime() - start) / 1e9);
        return 0;
    }

    private static void write(Writer out, MatchedPair p) {
        try {
            out.write(p.sender() + "," + p.sendNs() + "," + p.receiver() + "," + p.recvNs() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Events per node (and topic, when written to Kafka), then matched pairs per direction. */
    private void summary(PrintWriter out, Map<String, Long> perNode, Map<String, String> topics,
            Map<String, Long> directions, int traces, double seconds) {
        long events = perNode.values().stream().mapToLong(Long::longValue).sum();
        out.printf(Locale.ROOT, "%s %,d packet events of %,d nodes from %,d trace(s) in %.1f s%n",
                filesOnly ? "read" : "imported", events, perNode.size(), traces, seconds);
        out.printf("%-20s %12s%s%n", "node", "events", topics.isEmpty() ? "" : "  topic");
        perNode.forEach((n, c) -> out.printf(Locale.ROOT, "%-20s %,12d%s%n", n, c,
                topics.isEmpty() ? "" : "  " + topics.get(n)));
        out.printf(Locale.ROOT, "%,d matched pair(s)%s%n", directions.values().stream().mapToLong(Long::longValue)
                .sum(), pairsOut == null ? "" : " in " + pairsOut);
        directions.forEach((d, c) -> out.printf(Locale.ROOT, "  %-40s %,10d%n", d, c));
        out.flush();
    }

    /** The trace directories named: each a directory with a metadata file, or one holding such directories. */
    static List<Path> traces(List<Path> dirs) throws IOException {
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

    /** The per-node CSV files of {@code simulate} ({@link TraceCsv#HEADER}), flags as a number. */
    private static final class EventsCsv implements AutoCloseable {

        private final Map<String, Writer> files = new TreeMap<>();

        EventsCsv(Path dir, Set<String> nodes) throws IOException {
            Files.createDirectories(dir);
            for (String n : nodes) {
                Writer w = Files.newBufferedWriter(dir.resolve(n + ".csv"), StandardCharsets.US_ASCII);
                files.put(n, w);
                w.write(TraceCsv.HEADER + "\n");
            }
        }

        void write(TraceEvent e) {
            try {
                files.get(e.getNode()).write(e.getNode() + "," + e.getTsNs() + "," + e.getDirection() + ","
                        + address(e.getSaddr()) + "," + address(e.getDaddr()) + "," + port(e.getSport()) + ","
                        + port(e.getDport()) + "," + e.getSeq() + "," + e.getAckSeq() + "," + e.getFlags() + "\n");
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }

        private static String address(ByteBuffer b) throws IOException {
            if (b == null) {
                return "";
            }
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return InetAddress.getByAddress(bytes).getHostAddress();
        }

        private static String port(Integer p) {
            return p == null ? "" : p.toString();
        }

        @Override
        public void close() throws IOException {
            for (Writer w : files.values()) {
                w.close();
            }
        }
    }
}
