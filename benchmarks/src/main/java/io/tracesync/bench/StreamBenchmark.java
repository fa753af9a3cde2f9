package io.tracesync.bench;

import io.tracesync.console.UserError;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The streaming benchmark: the application's end-to-end throughput against the raw consume throughput
 * of the same records on the same broker, and its latency from a receive event to the factor it changes. Every run
 * gets its own application id and topics, so runs never share state.
 */
public final class StreamBenchmark {

    private final String bootstrap;
    private final String registry;
    private final Path work;
    private final int partitions;
    private final int nodes;
    private final double degree;
    private final double linkRate;
    private final Map<String, String> overrides;
    private final long seed;
    private final PrintWriter out;
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private final String prefix = "bench-" + Long.toString(System.currentTimeMillis(), 36);
    private int runs;

    /** {@code overrides}: application settings for every run (num.stream.threads, say). */
    public StreamBenchmark(String bootstrap, String registry, Path work, int partitions, int nodes, double degree,
            double linkRate, long seed, Map<String, String> overrides, PrintWriter out) {
        this.bootstrap = bootstrap;
        this.registry = registry;
        this.work = work;
        this.partitions = partitions;
        this.nodes = nodes;
        this.degree = degree;
        this.linkRate = linkRate;
        this.overrides = Map.copyOf(overrides);
        this.seed = seed;
        this.out = out;
    }

    /** A fresh application id and topics; the input is one multiplexed topic. */
    private Settings settings(Map<String, String> extra) throws IOException {
        String run = prefix + "-" + ++runs;
        Map<String, String> m = new HashMap<>(isolated(run, bootstrap, registry));
        m.put("state.dir", work.resolve("state").toAbsolutePath().toString());
        m.put(TracesyncConfig.TOPICS_PARTITIONS_CONFIG, Integer.toString(partitions));
        m.putAll(overrides);
        m.putAll(extra);
        return Settings.load(null, System.getenv(), m);
    }

    /** An application id of its own and topics named after it, on these services: runs never share state. */
    static Map<String, String> isolated(String id, String bootstrap, String registry) {
        return Map.of("bootstrap.servers", bootstrap, "schema.registry.url", registry, "application.id", id,
                TracesyncConfig.TRACES_TOPIC_CONFIG, id + ".traces",
                TracesyncConfig.FACTORS_TOPIC_CONFIG, id + ".factors",
                TracesyncConfig.TREE_TOPIC_CONFIG, id + ".tree",
                TracesyncConfig.LINKS_TOPIC_CONFIG, id + ".links",
                TracesyncConfig.DLQ_TOPIC_CONFIG, id + ".dlq");
    }

    private SimulationConfig cluster(long seedOffset) {
        try {
            return SimulationConfig.builder().nodes(nodes).degree(degree).rateMin(linkRate).rateMax(linkRate)
                    .durationNs(3_600_000_000_000L) // ended by the event limit or the run's length
                    .seed(seed + seedOffset).build();
        } catch (SimulationConfig.InvalidParameterException e) {
            throw new UserError("the benchmark's cluster: " + e.getMessage() + " (--nodes, --degree, --link-rate)",
                    e);
        }
    }

    /**
     * The throughput runs, on one input: with {@code anchors}, the raw consume and the floor ({@link FloorTopology})
     * with in-memory stores under at_least_once and exactly_once_v2, with RocksDB stores and with no stores under
     * exactly_once_v2; then tracesync; with {@code stages}, each of tracesync's stages alone on what its hop carried
     * in tracesync's run ({@link StageTopology}).
     * {@code warmUpEvents} first go through tracesync (and with {@code anchors} the floor), on a topic of their own,
     * in this JVM: the JIT compilers then do their work before the measured runs instead of during them (a cold
     * 1,000,000-event run shares the two cores with more than half a core of compilation, docs/PERFORMANCE.md).
     */
    public void throughput(long events, long warmUpEvents, boolean anchors, boolean stages) throws Exception {
        if (warmUpEvents > 0) {
            warmUp(warmUpEvents, anchors);
        }
        // the hops' records stay for the stages' runs: Kafka Streams deletes committed ones every 30 s by default
        Settings s = settings(stages ? Map.of(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG,
                Long.toString(Long.MAX_VALUE)) : Map.of());
        String topic = s.get(TracesyncConfig.TRACES_TOPIC_CONFIG);
        long[] counts = writeInput(s, events, 0);
        out.printf(Locale.ROOT, "input: %,d events (%,d true pairs) of a %d-node cluster in %s (%d partitions)%n",
                counts[0], counts[1], nodes, topic, partitions);
        out.flush();
        Anchors anchor = anchors ? anchors(s, topic, counts[0]) : null;
        ThroughputRun.Result app;
        long heapBytes;
        try (HeapAfterCollections heap = new HeapAfterCollections()) {
            app = ThroughputRun.run(ThroughputRun.tracesync(s, counts[0], counts[1]), counts[0], TIMEOUT);
            heapBytes = heap.maxBytes();
        }
        result("tracesync end to end, " + s.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG), app);
        out.printf(Locale.ROOT, "%-58s %s%n", "tracesync's stream threads' time (Kafka Streams metrics)",
                app.threadTime());
        if (anchor != null) {
            anchor.ratios(app);
        }
        out.printf(Locale.ROOT, "%-58s %,10d MiB  (of -Xmx %,d MiB); live at the end %,d MiB%n",
                "heap after collections, at most", heapBytes >> 20, Runtime.getRuntime().maxMemory() >> 20,
                app.liveHeapBytes() >> 20);
        out.printf(Locale.ROOT, "tracesync at the end: %s%n", app.did());
        out.flush();
        if (stages) {
            stages(s, counts[0], app);
        }
    }

    private void warmUp(long warmUpEvents, boolean anchors) throws Exception {
        Settings w = settings(Map.of());
        long[] counts = writeInput(w, warmUpEvents, 2);
        ThroughputRun.Result r = ThroughputRun.run(ThroughputRun.tracesync(w, counts[0], counts[1]), counts[0],
                TIMEOUT);
        for (FloorTopology.StoreKind stores : anchors ? FloorTopology.StoreKind.values()
                : new FloorTopology.StoreKind[0]) {
            ThroughputRun.run(ThroughputRun.floor(settings(Map.of(TracesyncConfig.TRACES_TOPIC_CONFIG,
                    w.get(TracesyncConfig.TRACES_TOPIC_CONFIG))), counts[0], stores), counts[0], TIMEOUT);
        }
        out.printf(Locale.ROOT, "%-58s %,14.0f events/s  (%,d events, not measured%s)%n",
                "warm-up run (the JIT compilers at work)", r.eventsPerSecond(), counts[0],
                anchors ? "; the floor's too" : "");
        out.flush();
    }

    /** The anchors' figures on the measured input: the raw consume, the floor under both guarantees and stores. */
    private record Anchors(ConsumerPerformanceRun.Result raw, ThroughputRun.Result eos, ThroughputRun.Result rocks,
            ThroughputRun.Result hops, PrintWriter out) {

        /** tracesync's rate against each anchor, and its stream-thread CPU above the floor's and the hops'. */
        void ratios(ThroughputRun.Result app) {
            out.printf(Locale.ROOT, "%-58s %14.3f  (goal >= 0.8)%n", "ratio tracesync / floor (exactly_once_v2)",
                    app.eventsPerSecond() / eos.eventsPerSecond());
            out.printf(Locale.ROOT, "%-58s %14.3f%n", "ratio tracesync / floor with RocksDB stores",
                    app.eventsPerSecond() / rocks.eventsPerSecond());
            out.printf(Locale.ROOT, "%-58s %14.3f%n", "ratio tracesync / the hops alone (no state stores)",
                    app.eventsPerSecond() / hops.eventsPerSecond());
            out.printf(Locale.ROOT, "%-58s %14.3f%n", "ratio floor (exactly_once_v2) / raw consume",
                    eos.eventsPerSecond() / raw.fetchRecordsPerSecond());
            out.printf(Locale.ROOT, "%-58s %14.3f%n", "ratio tracesync / raw consume", app.eventsPerSecond()
                    / raw.fetchRecordsPerSecond());
            out.printf(Locale.ROOT, "%-58s %,14.1f µs/event%n", "stream-thread CPU: tracesync minus the floor",
                    (app.streamCpuNs() - eos.streamCpuNs()) / 1e3);
            out.printf(Locale.ROOT, "%-58s %,14.1f µs/event%n", "stream-thread CPU: tracesync minus the hops alone",
                    (app.streamCpuNs() - hops.streamCpuNs()) / 1e3);
        }
    }

    private Anchors anchors(Settings s, String topic, long events) throws Exception {
        ConsumerPerformanceRun.Result raw = ConsumerPerformanceRun.run(bootstrap, clientConfig(s), topic, events,
                work);
        out.printf(Locale.ROOT, "%-58s %,14.0f events/s%n", "raw consume (ConsumerPerformance fetch.nMsg.sec)",
                raw.fetchRecordsPerSecond());
        out.printf(Locale.ROOT, "%-58s %,14.0f events/s%n", "raw consume, with its group join (nMsg.sec)",
                raw.recordsPerSecond());
        out.flush();
        String commit = s.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG) != null
                ? s.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG) : "100";
        floor(topic, events, FloorTopology.StoreKind.IN_MEMORY, Map.of(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE,
                StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commit));
        Map<String, String> eos = Map.of(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commit);
        return new Anchors(raw, floor(topic, events, FloorTopology.StoreKind.IN_MEMORY, eos),
                floor(topic, events, FloorTopology.StoreKind.ROCKSDB, eos),
                floor(topic, events, FloorTopology.StoreKind.HEAP, eos), out);
    }

    /**
     * Each stage of tracesync's run {@code s} alone, on the records its hop carried: stream-thread CPU per record
     * read and per input event, and the stage's throughput on one stream thread.
     */
    private void stages(Settings s, long events, ThroughputRun.Result whole) throws Exception {
        String id = s.get(StreamsConfig.APPLICATION_ID_CONFIG);
        out.printf(Locale.ROOT, "each stage alone, on the records its hop carried in that run (%s):%n",
                s.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
        out.printf(Locale.ROOT, "  %-14s %-22s %12s %14s %14s %16s%n", "stage", "reads", "records", "records/s",
                "µs CPU/record", "µs CPU/event");
        double sum = 0;
        for (StageTopology.Stage stage : StageTopology.stages(s)) {
            String hop = stage.topic(id);
            long records = hop == null ? events : CommittedRecords.count(s, hop, Duration.ofMinutes(10));
            String reads = hop == null ? "the input" : stage.hop() + " repartition";
            if (records == 0) {
                out.printf(Locale.ROOT, "  %-14s %-22s %,12d  (nothing to read)%n", stage.name(), reads, records);
                continue;
            }
            Map<String, String> m = new HashMap<>();
            m.put(TracesyncConfig.TRACES_TOPIC_CONFIG, s.get(TracesyncConfig.TRACES_TOPIC_CONFIG));
            ThroughputRun.Result r = ThroughputRun.run(ThroughputRun.stage(stage, hop, settings(m), records),
                    records, TIMEOUT);
            if (r.seconds() == 0) {
                out.printf(Locale.ROOT, "  %-14s %-22s %,12d  (all read at once: too few records to time)%n",
                        stage.name(), reads, records);
                continue;
            }
            double perEvent = r.streamCpuNs() * records / events;
            sum += perEvent;
            out.printf(Locale.ROOT, "  %-14s %-22s %,12d %,14.0f %,14.2f %,16.2f%n", stage.name(), reads, records,
                    r.eventsPerSecond(), r.streamCpuNs() / 1e3, perEvent / 1e3);
            out.printf(Locale.ROOT, "  %-14s %s%n", "", r.threadTime());
            out.flush();
        }
        out.printf(Locale.ROOT, "  %-14s %-22s %12s %14s %14s %,16.2f  (the whole run: %,.2f)%n", "together", "",
                "", "", "", sum / 1e3, whole.streamCpuNs() / 1e3);
        out.flush();
    }

    /** A floor run on {@code topic} with these settings; prints its figures and what it did. */
    private ThroughputRun.Result floor(String topic, long events, FloorTopology.StoreKind stores,
            Map<String, String> extra) throws Exception {
        Map<String, String> m = new HashMap<>(extra);
        m.put(TracesyncConfig.TRACES_TOPIC_CONFIG, topic);
        Settings f = settings(m);
        ThroughputRun.Result r = ThroughputRun.run(ThroughputRun.floor(f, events, stores), events, TIMEOUT);
        result(switch (stores) {
            case ROCKSDB -> "floor, exactly_once_v2, RocksDB stores";
            case IN_MEMORY -> "floor, " + f.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG) + ", in-memory stores";
            case HEAP -> "the hops alone, exactly_once_v2, state in the heap";
        }, r);
        out.printf(Locale.ROOT, "  %s%n", r.did());
        out.flush();
        return r;
    }

    private void result(String label, ThroughputRun.Result r) {
        out.printf(Locale.ROOT, "%-58s %,14.0f events/s  (%.1f s; start-up %.1f s before; stream threads %,.1f "
                + "µs/event of CPU, the process %,.1f)%n", label, r.eventsPerSecond(), r.seconds(),
                r.startupSeconds(), r.streamCpuNs() / 1e3, r.processCpuNs() / 1e3);
    }

    /** Writes {@code events} of the simulated cluster to the run's input topic: the events and the true pairs. */
    private long[] writeInput(Settings s, long events, long seedOffset) throws Exception {
        try (TraceTopicWriter writer = new TraceTopicWriter(s)) {
            writer.createTopics(List.of("input"));
            long[] counts = SimulatedStream.run(cluster(seedOffset), events, writer::write);
            writer.flush();
            return counts;
        }
    }

    public void latency(String emitInterval, double rate, Duration warmUp, Duration length, Duration probeEvery)
            throws Exception {
        Settings s = settings(Map.of(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG, emitInterval));
        LatencyRun.Result r = LatencyRun.run(s, cluster(1), rate, warmUp, length, probeEvery);
        out.printf(Locale.ROOT, "latency, factors.emit.interval=%s, commit.interval.ms=%s: offered %,.0f events/s, "
                        + "achieved %,.0f; %d probes: p50 %.0f ms, p99 %.0f ms, max %.0f ms; %d probes never seen%n",
                emitInterval, s.get("commit.interval.ms") == null ? "100 (exactly_once_v2 default)"
                        : s.get("commit.interval.ms"), r.offeredPerSecond(), r.achievedPerSecond(),
                r.latenciesNs().length, r.percentileNs(0.50) / 1e6, r.percentileNs(0.99) / 1e6,
                r.percentileNs(1.0) / 1e6, r.lostProbes());
        StringBuilder hops = new StringBuilder("  visible after (p50 / p99 ms):");
        for (int h = 0; h < ProbeHops.HOPS.size(); h++) {
            long[] l = r.hopsNs()[h];
            hops.append(l.length == 0 ? String.format(Locale.ROOT, " %s (no such hop)", ProbeHops.HOPS.get(h))
                    : String.format(Locale.ROOT, " %s %.0f / %.0f", ProbeHops.HOPS.get(h),
                    LatencyRun.Result.percentileNs(l, 0.5) / 1e6, LatencyRun.Result.percentileNs(l, 0.99) / 1e6));
            hops.append(h + 1 < ProbeHops.HOPS.size() ? "," : "");
        }
        out.println(hops);
        out.flush();
    }

    /** The application's client settings as a file for Kafka's tool (security settings included). */
    private Path clientConfig(Settings s) throws IOException {
        Properties p = new Properties();
        s.streamsProperties().forEach((k, v) -> {
            String key = k.toString();
            if (key.startsWith("security.") || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                p.put(key, v);
            }
        });
        Path file = work.resolve("client.properties");
        try (OutputStream o = Files.newOutputStream(file)) {
            p.store(o, "client settings of the benchmark's consumers");
        }
        return file;
    }
}
