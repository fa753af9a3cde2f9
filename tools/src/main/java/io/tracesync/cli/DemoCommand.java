package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.demo.Demo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync demo}: the options of a {@link Demo}; its report is {@code evaluate}'s. */
@Command(name = "demo",
        header = "Run the whole pipeline here: local services, a simulated cluster, the application, a report.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs tracesync end to end on this machine: a local Kafka broker (KRaft) and Apicurio schema "
                + "registry (or TRACESYNC_BOOTSTRAP / TRACESYNC_REGISTRY_URL), a simulated cluster traced into "
                + "per-node topics, the streaming application, then a table of the factors next to the ground "
                + "truth and an HTML report. Stops everything it started. Its topics are named after its "
                + "application id (tracesync-demo-<ms>.traces.<node>, ….sync.factors), so demos sharing a broker "
                + "never read each other's events."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "20", description = "Simulated nodes (default: 20).")
    int nodes;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "1m", converter = DurationConverter.class,
            description = "Simulated time (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Simulation seed (default: 1).")
    long seed;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "demo",
            description = "Working directory: the run's files, state, service logs and report (default: ./demo).")
    Path work;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Use this Kafka cluster instead of starting a broker (also: TRACESYNC_BOOTSTRAP).")
    String bootstrap;

    @Option(names = "--schema-registry-url", paramLabel = "URL",
            description = "Use this Confluent-compatible registry instead of starting one (also: "
                    + "TRACESYNC_REGISTRY_URL).")
    String registry;

    @Option(names = "--keep-running",
            description = "Serve the application's HTTP side (live view, /convert, /factors) from the start, its "
                    + "address printed at once, and at the end keep it and the services running until Ctrl-C, "
                    + "printing their addresses; the simulated clocks being known, its answers show the true time "
                    + "and error beside the guaranteed bounds.")
    boolean keepRunning;

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        return new Demo(new Demo.Options(nodes, duration, seed, work, bootstrap, registry, keepRunning), cmd.getOut(),
                cmd.getErr()).run((run, report) -> new CommandLine(new EvaluateCommand())
                        .setOut(new PrintWriter(PrintWriter.nullWriter()))
                        .execute("--run", run.toString(), "--report", report.toString()));
    }
}
