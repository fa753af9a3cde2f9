package io.tracesync.cli;

import io.tracesync.app.ProgressBar;
import io.tracesync.app.SettingsOptions;
import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.pcap.CaptureFormatException;
import io.tracesync.pcap.CaptureReader;
import io.tracesync.pcap.NodeAddresses;
import io.tracesync.pcap.TcpSegment;
import io.tracesync.streams.TraceTopicWriter;
import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code tracesync import pcap}: one node's packet captures into its trace topic, in two passes. The first reads
 * every file (any error is reported as FILE: reason and nothing is written) and settles the node's addresses; the
 * second writes each TCP segment from one of them as a SEND and each to one of them as a RECV, at the capture's
 * timestamp, as {@code import csv} writes — or, with {@code --events-out}, into the simulator's trace file format.
 */
@Command(name = "pcap", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads one node's packet captures (pcap or pcapng; Ethernet, Linux cooked SLL/SLL2 or raw IP; "
                + "TCP over IPv4 and IPv6) into its topic traces.<node>: a segment from one of the node's addresses is "
                + "a SEND, one to them a RECV, at the capture's timestamp (the node's clock).",
                "The node's addresses are the --address ones or else inferred: the address talking with the most "
                + "peers, if exactly one does (docs/REAL-INPUTS.md).",
                "Every file is read before anything is written: a file that cannot be read is reported as "
                + "FILE: reason and nothing is imported (exit code 2).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportPcapCommand implements Callable<Integer> {

    private static final String FLAG_LETTERS = "FSRPAUEC";
    private static final long MAX_TS = 1L << 62;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--node", required = true, paramLabel = "NAME", description = "The node that captured the files.")
    String node;

    @Option(names = "--address", paramLabel = "IP",
            description = "An address of the node (repeatable); default: inferred from the captures.")
    List<String> addresses = new ArrayList<>();

    @Option(names = "--events-out", paramLabel = "DIR",
            description = "Write DIR/NAME.csv in the simulator's trace file format (for import csv) instead of the "
                    + "topics.")
    Path eventsOut;

    @Mixin
    SettingsOptions options;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "pcap or pcapng captures of the node.")
    List<Path> files;

    /** What the second pass leaves aside. */
    private long foreign;
    private long internal;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (!TraceCsv.NODE.matcher(node).matches()) {
            err.println("--node '" + node + "' cannot name a topic (1 to 200 letters, digits, '.', '_', '-')");
            return 2;
        }
        long bytes = 0;
        for (Path f : files) {
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                err.println(f + ": " + (Files.exists(f) ? "not a readable file" : "no such file"));
                return 2;
            }
            bytes += Files.size(f);
        }
        Set<String> own = new LinkedHashSet<>();
        try {
            for (String a : addresses) {
                own.add(NodeAddresses.parse(a));
            }
        } catch (IllegalArgumentException e) {
            err.println("--address " + e.getMessage());
            return 2;
        }
        NodeAddresses seen = new NodeAddresses();
        long untimed = scan(bytes, err, "checking", seen::see);
        if (untimed < 0) {
            return 2;
        }
        if (seen.seen().isEmpty()) {
            err.println(node + ": no TCP packets in the captures");
            return 2;
        }
        if (own.isEmpty()) {
            try {
                own.add(seen.infer());
            } catch (IllegalArgumentException e) {
                err.println(node + ": " + e.getMessage());
                return 2;
            }
        } else if (seen.seen().stream().noneMatch(own::contains)) {
            err.println(node + ": no TCP packet from or to " + String.join(", ", own) + " (seen: "
                    + String.join(", ", seen.seen().subList(0, Math.min(10, seen.seen().size()))) + ")");
            return 2;
        }
        return eventsOut != null ? toFile(own, bytes, untimed, err) : toTopic(own, bytes, untimed, err);
    }

    private int toFile(Set<String> own, long bytes, long untimed, PrintWriter err) throws IOException {
        Files.createDirectories(eventsOut);
        Path out = eventsOut.resolve(node + ".csv");
        long[] n = {0};
        long start = System.nanoTime();
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.ISO_8859_1)) {
            w.write(TraceCsv.HEADER + "\n");
            scanEvents(own, bytes, err, e -> {
                try {
                    w.write(csvLine(e));
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                n[0]++;
            });
        } catch (UncheckedIOException | IllegalStateException e) {
            err.println("import failed: " + e.getMessage());
            return 1;
        }
        summary(n[0], out.toString(), own, untimed, start);
        return 0;
    }

    private int toTopic(Set<String> own, long bytes, long untimed, PrintWriter err) throws IOException {
        long[] n = {0};
        long start = System.nanoTime();
        try (TraceTopicWriter writer = new TraceTopicWriter(options.load())) {
            writer.createTopics(List.of(node));
            scanEvents(own, bytes, err, e -> {
                writer.write(e);
                n[0]++;
            });
            writer.flush();
            summary(n[0], "topic " + writer.topicOf(node), own, untimed, start);
            return 0;
        } catch (IllegalStateException e) {
            err.println("import failed: " + e.getMessage());
            return 1;
        }
    }

    private void scanEvents(Set<String> own, long bytes, PrintWriter err, Consumer<TraceEvent> events) {
        if (scan(bytes, err, "importing", s -> {
            TraceEvent e = event(s, own);
            if (e != null) {
                events.accept(e);
            }
        }) < 0) {
            throw new IllegalStateException("the captures changed since they were checked");
        }
    }

    /**
     * Reads every file with a bar by bytes, segments to {@code sink}; the count of packets without a timestamp, or
     * -1 after listing every file that cannot be read as FILE: reason.
     */
    private long scan(long bytes, PrintWriter err, String label, Consumer<TcpSegment> sink) {
        long untimed = 0;
        boolean bad = false;
        long[] before = {0};
        try (ProgressBar.Meter bar = ProgressBar.meter(bytes, err, label)) {
            for (Path f : files) {
                try (InputStream in = Files.newInputStream(f)) {
                    untimed += CaptureReader.read(new BufferedInputStream(in, 1 << 16), frame -> {
                        TcpSegment s = TcpSegment.of(frame);
                        if (s != null) {
                            if (s.tsNs() < 0 || s.tsNs() >= MAX_TS) {
                                throw new CaptureFormatException("packet " + frame.number()
                                        + ": timestamp " + s.tsNs() + " ns is outside 0..2^62");
                            }
                            sink.accept(s);
                        }
                        bar.update(before[0] + frame.end());
                    });
                } catch (IOException e) {
                    err.println(f + ": " + e.getMessage());
                    bad = true;
                }
                before[0] += sizeOf(f);
            }
        }
        err.flush();
        return bad ? -1 : untimed;
    }

    private static long sizeOf(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The event of a segment from or to the node, or null (counted) for one neither from nor to it, or both. */
    private TraceEvent event(TcpSegment s, Set<String> own) {
        boolean from = own.contains(NodeAddresses.text(s.saddr()));
        boolean to = own.contains(NodeAddresses.text(s.daddr()));
        if (from == to) {
            if (from) {
                internal++;
            } else {
                foreign++;
            }
            return null;
        }
        return TraceEvent.newBuilder().setNode(node).setTsNs(s.tsNs()).setDirection(from ? Direction.SEND
                : Direction.RECV).setSaddr(ByteBuffer.wrap(s.saddr())).setDaddr(ByteBuffer.wrap(s.daddr()))
                .setSport(s.sport()).setDport(s.dport()).setSeq(s.seq()).setAckSeq(s.ack()).setFlags(s.flags())
                .build();
    }

    /** A line of the simulator's trace file format. */
    static String csvLine(TraceEvent e) {
        return e.getNode() + "," + e.getTsNs() + "," + e.getDirection() + "," + address(e.getSaddr()) + ","
                + address(e.getDaddr()) + "," + e.getSport() + "," + e.getDport() + "," + e.getSeq() + ","
                + e.getAckSeq() + "," + flags(e.getFlags()) + "\n";
    }

    private static String address(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return NodeAddresses.text(a);
    }

    private static String flags(int flags) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < FLAG_LETTERS.length(); i++) {
            if ((flags & 1 << i) != 0) {
                s.append(FLAG_LETTERS.charAt(i));
            }
        }
        return s.isEmpty() ? "0" : s.toString();
    }

    private void summary(long events, String where, Set<String> own, long untimed, long start) {
        PrintWriter out = spec.commandLine().getOut();
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "imported %,d events of node %s from %,d file(s) into %s in %.1f s (%,.0f events/s)%n",
                events, node, files.size(), where, seconds, events / Math.max(seconds, 1e-9));
        out.println("addresses of " + node + (addresses.isEmpty() ? " (inferred): " : ": ") + String.join(", ", own));
        if (foreign + internal + untimed > 0) {
            out.printf(Locale.ROOT, "left out: %,d TCP packet(s) neither from nor to the node, %,d between its own "
                    + "addresses, %,d without a timestamp (simple packet blocks)%n", foreign, internal, untimed);
        }
        out.flush();
    }
}
