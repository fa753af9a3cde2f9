package io.tracesync.bench;

import io.tracesync.console.DurationConverter;
import io.tracesync.console.PluggedCommand;
import io.tracesync.environment.KafkaEnvironment;
import io.tracesync.testkit.ServicesOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-stream}: the application's throughput and latency beside the broker's own limit. */
@Command(name = "bench-stream",
        header = "Benchmark the application's throughput and latency on a broker.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measures the streaming application on a broker (the local one unless given): the raw "
                + "consume throughput of its input (Kafka's ConsumerPerformance) and the application's end-to-end "
                + "throughput with exactly_once_v2 on the same events, the floor (an application of the same shape "
                + "doing none of tracesync's work), each stage of tracesync alone, then the latency from a receive event "
                + "appended to its effect in sync.factors under a paced load, once per factors.emit.interval.",
                "Prints its figures; docs/PERFORMANCE.md has the method and one run's results."})
public final class BenchStreamCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--events", paramLabel = "N", defaultValue = "1000000",
            description = "Events for the throughput run (default: ${DEFAULT-VALUE}).")
    long events;

    @Option(names = "--warm-up-events", paramLabel = "N", defaultValue = "1000000",
            description = "Events processed first by an application of their own, so that the measured run finds "
                    + "the code compiled (default: ${DEFAULT-VALUE}; 0: a cold run).")
    long warmUpEvents;

    @Option(names = "--anchors", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Measure the anchors on the same input first: the raw consume and the floor, a Kafka "
                    + "Streams application of tracesync's shape doing none of its work (default: on).")
    boolean anchors;

    @Option(names = "--stages", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After tracesync's run, run each of its stages alone on the records its hop carried: "
                    + "CPU per record and per event, and each stage's throughput (default: on).")
    boolean stages;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "50",
            description = "Simulated nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "4",
            description = "Mean number of links per simulated node (random topology; default: ${DEFAULT-VALUE}).")
    double degree;

    @Option(names = "--link-rate", paramLabel = "MSG/S", defaultValue = "100",
            description = "Messages per second per simulated link (default: ${DEFAULT-VALUE}).")
    double linkRate;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "3",
            description = "Partitions of the input and of the application's topics (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--rate", paramLabel = "EVENTS/S", defaultValue = "50000",
            description = "Offered load during the latency runs (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--latency-for", paramLabel = "DURATION", defaultValue = "20s",
            converter = DurationConverter.class,
            description = "Length of each latency run (default: 20s; 0s: no latency runs).")
    Duration latencyFor;

    @Option(names = "--warm-up", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "Background load before the first probe of each latency run (default: 5s).")
    Duration warmUp;

    @Option(names = "--probe-every", paramLabel = "DURATION", defaultValue = "200ms",
            converter = DurationConverter.class, description = "Interval between latency probes (default: 200ms).")
    Duration probeEvery;

    @Option(names = "--emit-intervals", paramLabel = "DURATION[,...]", split = ",", defaultValue = "1s,100ms",
            description = "factors.emit.interval of each latency run (default: 1s,100ms).")
    List<String> emitIntervals;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "An application setting for every run, e.g. num.stream.threads=2 (repeatable).")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Simulation seed (default: 1).")
    long seed;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench",
            description = "Working directory: state, service logs, tool output (default: ./bench).")
    Path work;

    @Mixin
    ServicesOptions services;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Files.createDirectories(work);
        try (KafkaEnvironment env = services.start(work)) {
            out.println(env.description());
            out.flush();
            StreamBenchmark bench = new StreamBenchmark(env.bootstrapServers(), env.registryUrl(), work, partitions,
                    nodes, degree, linkRate, seed, overrides, out);
            bench.throughput(events, warmUpEvents, anchors, stages);
            for (String interval : latencyFor.isZero() ? List.<String>of() : emitIntervals) {
                bench.latency(interval, rate, warmUp, latencyFor, probeEvery);
            }
        }
        return 0;
    }
}
