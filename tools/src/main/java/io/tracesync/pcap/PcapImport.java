package io.tracesync.pcap;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.console.UserError;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.StartupCheck;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceCsvFiles;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One node's packet captures into its trace topic, in two passes. The first reads every file (any error is reported
 * as FILE: reason and nothing is written) and settles the node's addresses; the second writes each TCP segment
 * from one of them as a SEND and each to one of them as a RECV, at the capture's timestamp, as {@code import csv}
 * writes — or, with {@code eventsOut}, into a trace file ({@link TraceCsvFiles}).
 */
public final class PcapImport {

    /** What to import and where to; {@code addresses} empty: inferred ({@link NodeAddresses#infer}). */
    public record Options(String node, List<String> addresses, Path eventsOut, List<Path> files) {
    }

    private static final long MAX_TS = 1L << 62;
    private static final long EVENT_BUFFER_BYTES = 16L << 20;

    private final Options options;
    private final Settings settings;
    private final PrintWriter out;
    private final PrintWriter err;
    private final String node;
    private final List<Path> files;
    /** What the second pass leaves aside. */
    private long foreign;
    private long internal;


    public PcapImport(Options options, Settings settings, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.settings = settings;
        this.out = out;
        this.err = err;
        this.node = options.node();
        this.files = options.files();
    }

    /** Runs the import: 0 when done, 1 when Kafka refused the events, 2 for bad input (reported). */
    public int run() throws IOException {
        if (!TraceCsv.NODE.matcher(node).matches()) {
            throw new UserError("--node '" + node
                    + "' cannot name a topic (1 to 200 letters, digits, '.', '_', '-')");
        }
        long bytes = 0;
        for (Path f : files) {
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new UserError(f + ": " + (Files.exists(f) ? "not a readable file" : "no such file"));
            }
            bytes += Files.size(f);
        }
        Set<String> own = new LinkedHashSet<>();
        try {
            for (String a : options.addresses()) {
                own.add(NodeAddresses.parse(a));
            }
        } catch (IllegalArgumentException e) {
            throw new UserError("--address " + e.getMessage());
        }
        NodeAddresses seen = new NodeAddresses();
        long untimed = scan(bytes, "checking", seen::see);
        if (untimed < 0) {
            throw new UserError("nothing imported: the captures above cannot be read");
        }
        if (seen.seen().isEmpty()) {
            throw new UserError(node + ": no TCP packets in the captures");
        }
        if (own.isEmpty()) {
            try {
                own.add(seen.infer());
            } catch (IllegalArgumentException e) {
                throw new UserError(node + ": " + e.getMessage());
            }
        } else if (seen.seen().stream().noneMatch(own::contains)) {
            throw new UserError(node + ": no TCP packet from or to " + String.join(", ", own) + " (seen: "
                    + String.join(", ", seen.seen().subList(0, Math.min(10, seen.seen().size()))) + ")");
        }
        return options.eventsOut() != null ? toFile(own, bytes, untimed) : toTopic(own, bytes, untimed);
    }

    private int toFile(Set<String> own, long bytes, long untimed) throws IOException {
        Path file = TraceCsvFiles.file(options.eventsOut(), node);
        long[] n = {0};
        long start = System.nanoTime();
        try (TraceCsvFiles events = new TraceCsvFiles(options.eventsOut(), new String[] {node},
                EVENT_BUFFER_BYTES)) {
            scanEvents(own, bytes, e -> {
                try {
                    events.write(e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                n[0]++;
            });
        } catch (UncheckedIOException | IllegalStateException e) {
            err.println("error: import failed: " + e.getMessage());
            return 1;
        }
        summary(n[0], file.toString(), own, untimed, start);
        return 0;
    }

    private int toTopic(Set<String> own, long bytes, long untimed) throws IOException {
        long[] n = {0};
        long start = System.nanoTime();
        StartupCheck.run(settings, err);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(List.of(node));
            scanEvents(own, bytes, e -> {
                writer.write(e);
                n[0]++;
            });
            writer.flush();
            summary(n[0], "topic " + writer.topicOf(node), own, untimed, start);
            return 0;
        } catch (IllegalStateException e) {
            err.println("error: import failed: " + e.getMessage());
            return 1;
        }
    }

    private void scanEvents(Set<String> own, long bytes, Consumer<TraceEvent> events) {
        if (scan(bytes, "importing", s -> {
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
    private long scan(long bytes, String label, Consumer<TcpSegment> sink) {
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

    private void summary(long events, String where, Set<String> own, long untimed, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "imported %,d events of node %s from %,d file(s) into %s in %.1f s (%,.0f events/s)%n",
                events, node, files.size(), where, seconds, events / Math.max(seconds, 1e-9));
        out.println("addresses of " + node + (options.addresses().isEmpty() ? " (inferred): " : ": ")
                + String.join(", ", own));
        if (foreign + internal + untimed > 0) {
            out.printf(Locale.ROOT, "left out: %,d TCP packet(s) neither from nor to the node, %,d between its own "
                    + "addresses, %,d without a timestamp (simple packet blocks)%n", foreign, internal, untimed);
        }
        out.flush();
    }
}
