package io.tracesync.bench;

import io.tracesync.avro.TraceEvent;
import io.tracesync.console.DurationConverter;
import io.tracesync.console.PluggedCommand;
import io.tracesync.console.UserError;
import io.tracesync.environment.KafkaEnvironment;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.testkit.InstanceProcess;
import io.tracesync.testkit.ServicesOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-failover}: how long factors stop when the instance with the network task dies. */
@Command(name = "bench-failover",
        header = "Benchmark the failover of the network task between two instances.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs two instances of one application (two JVMs, static membership) on a loaded simulated "
                + "cluster, kills the one that runs the network task under live traffic and measures the time until "
                + "the survivor commits the next factor: once per --standbys value (num.standby.replicas).",
                "Prints each phase and the network stores' changelog; docs/PERFORMANCE.md has the method."})
public final class BenchFailoverCommand implements Callable<Integer>, PluggedCommand {

    /** How long the live traffic lasts: the kill comes two seconds in. */
    private static final Duration LIVE = Duration.ofSeconds(30);

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "10000",
            description = "Simulated nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "20",
            description = "Mean links per node (default: ${DEFAULT-VALUE}: 100,000 links at 10,000 nodes).")
    double degree;

    @Option(names = "--load-events", paramLabel = "N", defaultValue = "3000000",
            description = "Events processed before the kill (default: ${DEFAULT-VALUE}).")
    long loadEvents;

    @Option(names = "--live-rate", paramLabel = "EVENTS/S", defaultValue = "2000",
            description = "Live traffic during the failover (default: ${DEFAULT-VALUE}).")
    double liveRate;

    @Option(names = "--standbys", paramLabel = "N[,N...]", split = ",", defaultValue = "0,1",
            description = "num.standby.replicas of each run (default: ${DEFAULT-VALUE}).")
    List<Integer> standbys;

    @Option(names = "--session-timeout", paramLabel = "DURATION", defaultValue = "6s",
            converter = DurationConverter.class,
            description = "session.timeout.ms of the instances (heartbeat.interval.ms a sixth of it unless set, as "
                    + "docs/DEPLOYMENT.md advises): how soon the group notices a dead static member (default: 6s, "
                    + "the broker's smallest by default).")
    Duration sessionTimeout;

    @Option(names = "--instance-heap", paramLabel = "SIZE", defaultValue = "2g",
            description = "-Xmx of each instance (default: ${DEFAULT-VALUE}).")
    String heap;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "An application setting for both instances, e.g. links.with.network=true (repeatable).")
    Map<String, String> overrides = new HashMap<>();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Simulation seed (default: 1).")
    long seed;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench",
            description = "Working directory: state, instance logs, service logs (default: ./bench).")
    Path work;

    @Mixin
    ServicesOptions services;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Files.createDirectories(work);
        SimulationConfig cluster;
        try {
            cluster = SimulationConfig.builder().nodes(nodes).degree(degree)
                    .durationNs(24 * 3_600_000_000_000L) // ended by the event count
                    .seed(seed).build();
        } catch (SimulationConfig.InvalidParameterException e) {
            throw new UserError("the benchmark's cluster: " + e.getMessage() + " (--nodes, --degree)", e);
        }
        long liveEvents = (long) (liveRate * LIVE.toSeconds());
        List<TraceEvent> events = new ArrayList<>();
        SimulatedStream.run(cluster, loadEvents + liveEvents, events::add);
        List<TraceEvent> load = events.subList(0, (int) Math.min(loadEvents, events.size()));
        List<TraceEvent> live = events.subList(load.size(), events.size());
        try (KafkaEnvironment env = services.start(work)) {
            out.println(env.description());
            out.printf(Locale.ROOT, "cluster: %,d nodes, mean degree %.0f; %,d events loaded, then %,.0f events/s "
                    + "during the failover; session.timeout.ms %d%n", nodes, degree, load.size(), liveRate,
                    sessionTimeout.toMillis());
            out.flush();
            for (int n : standbys) {
                String id = "failover-" + Long.toString(System.currentTimeMillis(), 36) + "-" + n;
                Map<String, String> config = new HashMap<>(overrides);
                config.putAll(StreamBenchmark.isolated(id, env.bootstrapServers(), env.registryUrl()));
                config.put("num.standby.replicas", Integer.toString(n));
                config.put("session.timeout.ms", Long.toString(sessionTimeout.toMillis()));
                long heartbeat = Math.max(100, sessionTimeout.toMillis() / 6);
                config.putIfAbsent("heartbeat.interval.ms", Long.toString(heartbeat));
                FailoverRun run = new FailoverRun(config, InstanceProcess.classPathCommand(heap), work.resolve(id));
                FailoverRun.Result r = run.run(load, live, liveRate, Duration.ofMinutes(30), () -> { });
                out.printf(Locale.ROOT, "num.standby.replicas=%d: instance %s killed; the survivor left RUNNING "
                        + "after %,d ms, RUNNING again after %,d ms; first factor committed after %,d ms; "
                        + "network-links changelog %,d records, %,.1f MiB%n", n, r.killed(), r.rebalanceMs(),
                        r.runningMs(), r.firstFactorMs(), r.changelogRecords(), r.changelogBytes() / 1048576.0);
                out.flush();
            }
        }
        return 0;
    }
}
