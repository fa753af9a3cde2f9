package io.tracesync.sim;

import io.tracesync.files.PairsCsv;
import io.tracesync.files.TraceCsv;
import io.tracesync.files.TraceCsvFiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Writes a simulation into a directory (formats in docs/SIMULATOR.md):
 * <ul>
 *   <li>{@code events/NODE.csv} — the node's trace,
 *       {@code node,ts_ns,direction,saddr,daddr,sport,dport,seq,ack,flags};</li>
 *   <li>{@code pairs.csv} — the matched pairs, {@code sender,send_ns,receiver,recv_ns} (node-local times);</li>
 *   <li>{@code truth-pairs.csv} — the same pairs, same order, plus {@code true_send_ns,true_recv_ns};</li>
 *   <li>{@code truth-clocks.csv} — every clock's breakpoints {@code node,true_ns,local_ns};</li>
 *   <li>{@code truth-clock-events.csv} — every jump, daemon poll and end of a slew
 *   {@code node,true_ns,kind,value} ({@link ClockEvent});</li>
 *   <li>{@code truth.json} — options, every node's and link's parameters, counts ({@link TruthJson}).</li>
 * </ul>
 * The directory must be new or empty: trace files are appended to.
 */
public final class OutputDirectory implements SimulationSink, AutoCloseable {

    /** Memory for buffered trace events, in all. */
    static final long EVENT_BUFFER_BYTES = 64L << 20;

    private final Path dir;
    private final Scenario scenario;
    private final String[] names;
    private final TraceCsvFiles events;
    private final Writer pairs;
    private final Writer truePairs;
    private final Writer clocks;
    private final Writer clockEvents;
    private final StringBuilder line = new StringBuilder(128);
    private boolean closed;

    public OutputDirectory(Path dir, Scenario scenario) throws IOException {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(dir + " exists and is not a directory");
            }
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new IllegalArgumentException("output directory " + dir + " is not empty");
                }
            }
        }
        Files.createDirectories(dir);
        this.dir = dir;
        this.scenario = scenario;
        this.names = new String[scenario.nodeCount()];
        for (int i = 0; i < names.length; i++) {
            names[i] = scenario.node(i).name();
        }
        this.events = new TraceCsvFiles(eventsDir(dir), names, EVENT_BUFFER_BYTES);
        this.pairs = writer(pairsCsv(dir), PairsCsv.HEADER + "\n");
        this.truePairs = writer(dir.resolve("truth-pairs.csv"), PairsCsv.HEADER + ",true_send_ns,true_recv_ns\n");
        this.clocks = writer(dir.resolve("truth-clocks.csv"), "node,true_ns,local_ns\n");
        this.clockEvents = writer(dir.resolve(CLOCK_EVENTS), "node,true_ns,kind,value\n");
    }

    /** The file of every clock's jumps and daemon polls. */
    public static final String CLOCK_EVENTS = "truth-clock-events.csv";

    public static Path eventsDir(Path dir) {
        return dir.resolve("events");
    }

    public static Path pairsCsv(Path dir) {
        return dir.resolve("pairs.csv");
    }

    private static Writer writer(Path p, String header) throws IOException {
        Writer w = new BufferedWriter(Files.newBufferedWriter(p, StandardCharsets.US_ASCII), 1 << 16);
        w.write(header);
        return w;
    }

    @Override
    public void traceEvent(TraceEvent e) {
        line.setLength(0);
        TraceCsv.appendLine(line, names[e.node()], e.localNs(), e.send(), scenario.node(e.src()).address(),
                scenario.node(e.dst()).address(), e.srcPort(), e.dstPort(), e.seq(), e.ack(), "PA");
        try {
            events.append(e.node(), line);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @Override
    public void pair(MatchedSegment p) {
        line.setLength(0);
        PairsCsv.appendLine(line, names[p.sender()], p.sendNs(), names[p.receiver()], p.recvNs());
        int common = line.length();
        line.append('\n');
        try {
            pairs.append(line);
            line.setLength(common);
            line.append(',').append(p.trueSendNs()).append(',').append(p.trueRecvNs()).append('\n');
            truePairs.append(line);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @Override
    public void clockBreakpoint(int node, long trueNs, long localNs) {
        line.setLength(0);
        line.append(names[node]).append(',').append(trueNs).append(',').append(localNs).append('\n');
        try {
            clocks.append(line);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @Override
    public void clockEvent(int node, long trueNs, ClockEvent kind, double value) {
        line.setLength(0);
        line.append(names[node]).append(',').append(trueNs).append(',').append(kind.name().toLowerCase(Locale.ROOT))
                .append(',').append(kind == ClockEvent.JUMP ? Long.toString((long) value) : Double.toString(value))
                .append('\n');
        try {
            clockEvents.append(line);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    /** Flushes everything and writes {@code truth.json} with the run's counts. */
    public void finish(SimulationStats stats) throws IOException {
        close();
        TruthJson.write(dir.resolve(TruthJson.FILE), scenario, stats);
    }

    /** Flushes and closes the files (again: nothing). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (Writer p = pairs; Writer t = truePairs; Writer c = clocks; Writer k = clockEvents;
             TraceCsvFiles e = events) {
            p.flush();
            t.flush();
            c.flush();
            k.flush();
        }
    }
}
