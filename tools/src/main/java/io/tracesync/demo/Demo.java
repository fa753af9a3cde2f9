package io.tracesync.demo;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.ProgressLine;
import io.tracesync.console.UserError;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.environment.FileTrees;
import io.tracesync.environment.KafkaEnvironment;
import io.tracesync.eval.FactorRow;
import io.tracesync.eval.TrueClocks;
import io.tracesync.sim.GroundTruth;
import io.tracesync.sim.OutputDirectory;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulatedTraffic;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import io.tracesync.sim.SimulationStats;
import io.tracesync.sim.Simulator;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.http.KnownTruth;
import io.tracesync.streams.http.OperationsServer;
import io.tracesync.streams.metrics.AppMetrics;
import io.tracesync.streams.metrics.PipelineStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The whole pipeline on this machine. Starts a Kafka broker and a schema registry, simulates a cluster into per-node
 * topics, runs the application on them with a live progress line, and ends with every node's factors beside the
 * ground truth and the offline answer, and an HTML report.
 */
public final class Demo {

    /**
     * What to simulate, where to work, which services to use instead of local ones (null: local), and whether to
     * keep the application, its HTTP side and the services running at the end.
     */
    public record Options(int nodes, Duration duration, long seed, Path work, String bootstrap, String registry,
            boolean keepRunning) {
    }

    /** How long the application may do nothing before every event is in and a factor out. */
    private static final long STALL_NS = 60_000_000_000L;

    private final Options options;
    private final PrintWriter out;
    private final PrintWriter err;
    /** The largest component's reference as the live line showed it, each change once. */
    private final List<String> references = new ArrayList<>();

    public Demo(Options options, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the demo; the exit code of the report's evaluation.
     *
     * @param report the command that writes the report of a run directory into a directory, as {@code evaluate}
     */
    public int run(BiFunction<Path, Path, Integer> report) throws Exception {
        Scenario scenario;
        try {
            scenario = Scenario.build(SimulationConfig.builder().nodes(options.nodes())
                    .durationNs(options.duration().toNanos()).seed(options.seed()).build());
        } catch (SimulationConfig.InvalidParameterException e) {
            throw new UserError("the demo's cluster: " + e.getMessage() + " (--nodes, --duration)", e);
        }
        Files.createDirectories(options.work());
        Path run = options.work().resolve("run");
        if (Files.exists(run)) {
            err.println("replacing the previous demo's simulated run in " + run);
            FileTrees.delete(run);
        }
        err.println("starting Kafka and the schema registry...");
        // with --keep-running, the JVM's exit waits until everything below is stopped
        try (UntilStopped stop = options.keepRunning() ? new UntilStopped() : null;
                KafkaEnvironment env = KafkaEnvironment.start(options.work().resolve("services"),
                options.bootstrap() != null ? options.bootstrap() : System.getenv(KafkaEnvironment.BOOTSTRAP_VARIABLE),
                options.registry() != null ? options.registry() : System.getenv(KafkaEnvironment.REGISTRY_VARIABLE))) {
            err.println(env.description());
            Settings settings = settings(env);
            List<SendReceive> pairs = new ArrayList<>();
            long events;
            try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < scenario.nodeCount(); i++) {
                    names.add(scenario.node(i).name());
                }
                writer.createTopics(names);
                try (TracesyncApp app = TracesyncApp.start(settings)) {
                    // running before the simulation's bar starts, so that the state lines are not drawn into it
                    if (!app.awaitRunning(Duration.ofMinutes(2))) {
                        throw new IllegalStateException("the application did not start within 2 min (state "
                                + app.streams().state() + "): see the log above, or run again with --verbose");
                    }
                    AtomicReference<KnownTruth> known = new AtomicReference<>();
                    try (AppMetrics metrics = options.keepRunning() ? new AppMetrics(app.streams(), app.stats())
                            : null; OperationsServer server = metrics == null ? null
                                    : serve(settings, app, metrics, known)) {
                        events = simulate(scenario, run, writer, pairs);
                        await(app.stats(), events);
                        Map<String, SyncFactor> streamed = FactorsTopic.latest(settings, Duration.ofSeconds(30));
                        GroundTruth groundTruth = GroundTruth.read(run);
                        known.set(new SimulatedTruth(groundTruth::clock));
                        TrueClocks truth = TrueClocks.of(groundTruth);
                        table(scenario, truth, streamed,
                                OfflineSync.factors(pairs, settings.linkOptions(), settings.networkOptions()));
                        reference(settings, streamed, pairs);
                        Path reportDir = options.work().resolve("report");
                        int code = report.apply(run, reportDir);
                        out.printf("report: %s%n", reportDir.resolve("report.html").toAbsolutePath());
                        out.flush();
                        if (server != null) {
                            String node = scenario.node(0).name();
                            keepRunning(stop, settings, server, env, node, truth.localAt(node, scenario.endNs()));
                        }
                        return code;
                    }
                }
            }
        }
    }

    /**
     * The application's HTTP side on any free port from the start, so that the live view shows the factors coming in
     * as the simulation streams; the simulated clocks are the truth beside every answer once the run is read back.
     */
    private OperationsServer serve(Settings settings, TracesyncApp app, AppMetrics metrics,
            AtomicReference<KnownTruth> known) throws IOException {
        OperationsServer server = OperationsServer.start(settings.with(TracesyncConfig.HTTP_PORT_CONFIG, "0"),
                app.streams(), metrics, (node, reference, localNs) -> known.get() == null ? OptionalLong.empty()
                        : known.get().referenceAt(node, reference, localNs));
        err.printf("live view: http://127.0.0.1:%d/ (open it now: the factors come in as the simulation "
                + "streams)%n", server.port());
        err.flush();
        return server;
    }

    /** Keeps everything running until Ctrl-C, after printing where to look and how to reach the services. */
    private void keepRunning(UntilStopped stop, Settings settings, OperationsServer server, KafkaEnvironment env,
            String node, long localNs) throws InterruptedException {
        String base = "http://127.0.0.1:" + server.port();
        out.printf("%nkept running (Ctrl-C stops everything); the simulated clocks are known, so the answers "
                + "show the true time and error too:%n  live view     %s/%n"
                + "  a conversion  %s/convert?node=%s&t=%d%n  factors       %s/factors%n"
                + "  services      --bootstrap-servers %s --schema-registry-url %s%n"
                + "  topics        %s (the factors), %s<node> (the traces)%n"
                + "  a client      SyncClock.start(Map.of(\"bootstrap.servers\", \"%s\", \"schema.registry.url\", "
                + "\"%s\", \"factors.topic\", \"%s\"))%n",
                base, base, node, localNs, base, env.bootstrapServers(), env.registryUrl(),
                settings.get(TracesyncConfig.FACTORS_TOPIC_CONFIG),
                settings.get(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG), env.bootstrapServers(), env.registryUrl(),
                settings.get(TracesyncConfig.FACTORS_TOPIC_CONFIG));
        out.flush();
        stop.await();
    }

    /**
     * The demo application's settings on {@code env}: the writer places every event in its segment's partition, so
     * it runs with the shortcuts (docs/STREAMS.md, steps 3 and 7): two hops fewer to the factors; its topics are its
     * own, named after its application id, so that demos on one broker (a user's) never read each other's events.
     */
    private Settings settings(KafkaEnvironment env) throws IOException {
        String id = "tracesync-demo-" + System.currentTimeMillis();
        return Settings.load(null, Map.of(), Map.ofEntries(
                Map.entry(TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG, "true"),
                Map.entry(TracesyncConfig.LINKS_WITH_NETWORK_CONFIG, "true"),
                Map.entry("bootstrap.servers", env.bootstrapServers()),
                Map.entry("schema.registry.url", env.registryUrl()),
                Map.entry("application.id", id),
                Map.entry(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG, id + ".traces."),
                Map.entry(TracesyncConfig.TRACES_PATTERN_CONFIG, Pattern.quote(id + ".traces.") + ".+"),
                Map.entry(TracesyncConfig.FACTORS_TOPIC_CONFIG, id + ".sync.factors"),
                Map.entry(TracesyncConfig.TREE_TOPIC_CONFIG, id + ".sync.tree"),
                Map.entry(TracesyncConfig.LINKS_TOPIC_CONFIG, id + ".sync.links"),
                Map.entry(TracesyncConfig.DLQ_TOPIC_CONFIG, id + ".sync.dlq"),
                Map.entry("state.dir", options.work().resolve("state").toAbsolutePath().toString()),
                Map.entry("commit.interval.ms", "200"),
                Map.entry(TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG, "0"),
                Map.entry(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG, "0")));
    }

    /** Runs the simulation into the run directory (for the report) and the per-node topics at once. */
    private long simulate(Scenario scenario, Path run, TraceTopicWriter writer, List<SendReceive> pairs)
            throws IOException {
        SimulatedTraffic traffic = new SimulatedTraffic(scenario);
        Simulator simulator = new Simulator(scenario);
        try (OutputDirectory files = new OutputDirectory(run, scenario);
             ProgressBar.Meter bar = ProgressBar.meter(simulator.progressTotal(), err, "simulating into Kafka")) {
            SimulationStats stats = simulator.run(new SimulationSink() {
                @Override
                public void traceEvent(SimulationSink.TraceEvent e) {
                    files.traceEvent(e);
                    writer.write(traffic.record(e));
                }

                @Override
                public void pair(MatchedSegment p) {
                    files.pair(p);
                    pairs.add(new SendReceive(scenario.node(p.sender()).name(), p.sendNs(),
                            scenario.node(p.receiver()).name(), p.recvNs()));
                }

                @Override
                public void clockBreakpoint(int node, long trueNs, long localNs) {
                    files.clockBreakpoint(node, trueNs, localNs);
                }
            }, bar::update);
            files.finish(stats);
            writer.flush();
            return stats.events();
        }
    }

    /**
     * Shows the live line until every event is in and the factors have not changed for three seconds; fails when
     * the application stalls before that.
     */
    private void await(PipelineStats stats, long events) throws InterruptedException {
        ProgressLine line = new ProgressLine(err, events);
        long settledSince = 0;
        long lastFactors = -1;
        long lastEvents = -1;
        long progressSince = System.nanoTime();
        while (true) {
            Thread.sleep(500);
            line.show(stats);
            noteReference(stats);
            long f = stats.factorRecords.get();
            long e = stats.events.get();
            if (e != lastEvents || f != lastFactors) {
                progressSince = System.nanoTime();
            } else if (System.nanoTime() - progressSince > STALL_NS && (e < events || f == 0)) {
                line.finish(stats);
                throw new IllegalStateException("the application read " + e + " of " + events + " events and wrote "
                        + f + " factor records, and has done nothing for " + STALL_NS / 1_000_000_000L + " s: see "
                        + "the log above, or run again with --verbose");
            }
            if (e >= events && f == lastFactors && f > 0) {
                if (settledSince == 0) {
                    settledSince = System.nanoTime();
                } else if (System.nanoTime() - settledSince > 3_000_000_000L) {
                    break;
                }
            } else {
                settledSince = 0;
            }
            lastFactors = f;
            lastEvents = e;
        }
        line.finish(stats);
        noteReference(stats);
    }

    private void noteReference(PipelineStats stats) {
        String reference = stats.reference.get();
        if (!reference.isEmpty()
                && (references.isEmpty() || !references.get(references.size() - 1).equals(reference))) {
            references.add(reference);
        }
    }

    /** Every node's streamed factor, its true error at the end of the run, and whether it equals the offline one. */
    private void table(Scenario scenario, TrueClocks truth, Map<String, SyncFactor> streamed,
            Map<String, NodeFactor> offline) {
        long end = scenario.endNs();
        out.printf(Locale.ROOT, "%n%-6s %-9s %12s %18s %10s %10s %7s %12s%n", "node", "reference", "drift (ppm)",
                "offset at end (s)", "± bound", "true err", "inside", "= sync-pairs");
        int inside = 0;
        int same = 0;
        for (int i = 0; i < scenario.nodeCount(); i++) {
            String node = scenario.node(i).name();
            SyncFactor r = streamed.get(node);
            if (r == null) {
                out.printf("%-6s (no factor yet)%n", node);
                continue;
            }
            Factor f = PublishedFactor.of(r).factor();
            FactorRow row = new FactorRow(end, node, r.getReference(), f);
            long local = truth.localAt(node, end);
            double error = row.apply(local).subtract(DoubleDouble.of(truth.localAt(r.getReference(), end))).hi();
            boolean in = row.contains(local, error);
            NodeFactor o = offline.get(node);
            boolean equal = o != null && o.reference().equals(r.getReference()) && o.factor().equals(f);
            inside += in ? 1 : 0;
            same += equal ? 1 : 0;
            double driftPpm = f.toReference().slope().subtract(DoubleDouble.ONE).hi() * 1e6;
            double offsetNs = f.toReference().apply(local).subtract(DoubleDouble.of(local)).hi();
            out.printf(Locale.ROOT, "%-6s %-9s %+12.3f %+,18.6f %10s %10s %7s %12s%n", node, r.getReference(),
                    driftPpm, offsetNs / 1e9,
                    f.bounded() ? Durations.format(Math.max(f.upPs(), f.downPs()) / 1e3) : "-",
                    Durations.format(error), in ? "yes" : "NO", equal ? "yes" : "DIFFERS");
        }
        out.printf(Locale.ROOT, "%ndrift: slope - 1 of the factor (> 0: the node's clock is slower than its "
                + "reference's);%noffset at end: the reference's time minus the node's at the end of the run; ± bound: "
                + "the larger of the%npublished factor's guaranteed bounds above and below its answer (the report's "
                + "width is their sum);%ntrue err: its answer minus the reference's true time; = sync-pairs: the "
                + "streamed factor is exactly the one%n`tracesync sync-pairs` computes from the same pairs at once, "
                + "offline.%n");
        if (references.size() > 1) {
            out.printf(Locale.ROOT, "%nThe reference moved as the spanning tree grew: %s (the largest component's, as "
                    + "the live line showed it).%n", String.join(", then ", references));
        }
        out.printf(Locale.ROOT, "%n%d of %d nodes: true error inside the guaranteed bound; %d equal to the offline "
                + "answer (tracesync sync-pairs) on the same pairs%n", inside, streamed.size(), same);
        out.flush();
    }

    /** Why the reference is the one it is: the rule that chose it, and how many links it has. */
    private void reference(Settings settings, Map<String, SyncFactor> streamed, List<SendReceive> pairs) {
        Map<String, Long> references = streamed.values().stream().collect(Collectors.groupingBy(
                r -> r.getReference().toString(), TreeMap::new, Collectors.counting()));
        Map<String, Set<String>> peers = new HashMap<>();
        for (SendReceive p : pairs) {
            peers.computeIfAbsent(p.sender(), n -> new TreeSet<>()).add(p.receiver());
            peers.computeIfAbsent(p.receiver(), n -> new TreeSet<>()).add(p.sender());
        }
        int most = peers.values().stream().mapToInt(Set::size).max().orElse(0);
        String pinned = settings.get(TracesyncConfig.NETWORK_REFERENCE_CONFIG);
        String rule = settings.get(TracesyncConfig.NETWORK_REFERENCE_RULE_CONFIG);
        references.forEach((reference, nodes) -> out.printf(Locale.ROOT, "%n%s is the reference of %d nodes: %s%n",
                reference, nodes, !pinned.isEmpty() ? "pinned by network.reference"
                        : rule.equals(ReferenceRule.MOST_LINKS.label()) ? "by network.reference.rule=" + rule
                                + ", of the nodes with the most links (" + most + "; " + reference + " has "
                                + peers.getOrDefault(reference, Set.of()).size() + ") the smallest name"
                        : "by network.reference.rule=" + rule + ", the spanning tree's centroid"));
        out.flush();
    }
}
