package io.tracesync.bench;

import io.tracesync.console.PluggedCommand;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-history}: {@code /convert}'s conversions on a large factor history. */
@Command(name = "bench-history",
        header = "Measure conversions of past times on a large factor history store.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fills the application's factor history store (RocksDB, keyed by node and anchor, in a "
                + "temporary directory removed at the end) with --nodes nodes x --hours of versions, one per "
                + "--spacing seconds of local time (the default factors.history.spacing), then converts --queries "
                + "random times within the nodes' histories as /convert does: the two versions around the time, "
                + "the node's newest, and the conversion with them.",
                "Prints the versions, the fill time and the store's size on disk, and the latency of a conversion "
                        + "(p50, p99, p99.9, max) with the share answered between two versions. The interactive "
                        + "query's dispatch by Kafka Streams (IQv2) and HTTP come on top."})
public final class BenchHistoryCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "1000",
            description = "Nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--hours", paramLabel = "H", defaultValue = "24",
            description = "Hours of history per node (default: ${DEFAULT-VALUE}).")
    double hours;

    @Option(names = "--spacing", paramLabel = "S", defaultValue = "10",
            description = "Seconds of local time between versions kept (default: ${DEFAULT-VALUE}).")
    int spacing;

    @Option(names = "--queries", paramLabel = "Q", defaultValue = "100000",
            description = "Conversions timed (default: ${DEFAULT-VALUE}).")
    int queries;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the times asked.")
    long seed;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (nodes < 1 || !(hours > 0) || spacing < 1 || queries < 1) {
            spec.commandLine().getErr().println("error: need --nodes, --hours, --spacing and --queries above 0");
            return 2;
        }
        HistoryQueries.Result r = new HistoryQueries(new HistoryQueries.Config(nodes, hours, spacing, queries,
                seed)).run(n -> { });
        out.printf(Locale.ROOT, "%,d nodes x %s h at one version per %d s: %,d versions, filled in %.1f s "
                + "(%,.0f a second), %,.1f MB on disk (%.0f bytes a version)%n", nodes, hours, spacing, r.versions(),
                r.fillSeconds(), r.versions() / r.fillSeconds(), r.storeBytes() / 1e6,
                (double) r.storeBytes() / r.versions());
        out.printf(Locale.ROOT, "%,d conversions: p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs, max %.1f µs; %.2f %% "
                + "between two versions%n", queries, r.percentileNs(0.5) / 1e3, r.percentileNs(0.99) / 1e3,
                r.percentileNs(0.999) / 1e3, r.latenciesNs()[r.latenciesNs().length - 1] / 1e3,
                100.0 * r.interpolated() / queries);
        out.flush();
        return 0;
    }
}
