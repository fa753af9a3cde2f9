package io.tracesync.bench;

import io.tracesync.console.PluggedCommand;
import io.tracesync.core.network.NetworkBenchmark;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.core.network.NetworkStats;
import io.tracesync.core.network.NetworkSync;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tracesync bench-network}: the dynamic-network experiment of [Jabbarifar 2013, Tables 4.1/5.1] on the
 * network core.
 */
@Command(name = "bench-network",
        header = "Benchmark the network core on a dynamic network.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Benchmarks the network core on the dynamic-network workload of [Jabbarifar 2013]: vertices "
                + "appear, trees join, then almost every operation is a link closing a cycle.",
                "Prints the operation counts ([Jabbarifar 2013, Tables 4.1/5.1]), the time in the spanning forest "
                        + "(MST), in reference nodes (RN: the centroid, the thesis' reference) and in factor "
                        + "propagation, and a naive from-scratch baseline."})
public final class BenchNetworkCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", split = ",", paramLabel = "N",
            defaultValue = "10000,20000,30000,40000,50000,60000",
            description = "Network sizes, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> nodes;

    @Option(names = "--ops", paramLabel = "M", defaultValue = "1000000",
            description = "Operations per run (default: ${DEFAULT-VALUE}).")
    int ops;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--decrease", paramLabel = "PCT", defaultValue = "0",
            description = "Percent of operations lowering a random link's weight, beyond the links drawn twice "
                    + "(default: ${DEFAULT-VALUE}).")
    double decrease;

    @Option(names = "--increase", paramLabel = "PCT", defaultValue = "0.1",
            description = "Percent of operations raising a random link's weight (default: ${DEFAULT-VALUE}).")
    double increase;

    @Option(names = "--remove", paramLabel = "PCT", defaultValue = "0.1",
            description = "Percent of operations removing a random link (default: ${DEFAULT-VALUE}).")
    double remove;

    @Option(names = "--drain-every", paramLabel = "K", defaultValue = "1000",
            description = "Recompute factors after every K operations, as a stream coalesces them; 1 = after "
                    + "each one, as [Jabbarifar 2013, Alg. 9] (default: ${DEFAULT-VALUE}).")
    int drainEvery;

    @Option(names = "--naive-nodes", paramLabel = "N", defaultValue = "10000",
            description = "Size for the naive from-scratch baseline; 0 skips it (default: ${DEFAULT-VALUE}).")
    int naiveNodes;

    @Option(names = "--naive-samples", paramLabel = "K", defaultValue = "20",
            description = "States at which the from-scratch forest and propagation are timed (default: "
                    + "${DEFAULT-VALUE}).")
    int naiveSamples;

    @Option(names = "--warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Warm the JIT up first on one untimed run of the first size, with the next seed "
                    + "(default: ${DEFAULT-VALUE}).")
    boolean warmup;

    /** The thesis' reference node: the centroid of each tree [Jabbarifar 2013, ch. 4]. */
    private static final NetworkOptions THESIS = NetworkOptions.DEFAULT.withReferenceRule(ReferenceRule.CENTROID);

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (warmup) {
            new NetworkBenchmark(new NetworkBenchmark.Config(nodes.get(0), ops, seed + 1, decrease, increase, remove,
                    drainEvery)).run(new NetworkSync(THESIS));
        }
        out.printf("%d operations per run, seed %d, factors recomputed every %d operation(s)%n%n", ops, seed,
                drainEvery);
        out.printf("%7s %8s %8s %7s %10s %10s %8s %8s %7s %7s %7s | %8s %8s %8s %8s %8s %10s %10s %10s %8s%n",
                "nodes", "newTree", "insert", "join", "cycleKept", "cycleDrop", "decrease", "increase", "remove",
                "replace", "split", "MST s", "RN s", "factor s", "total s", "RN chg", "computed", "changed", "scans",
                "queries");
        for (int n : nodes) {
            NetworkBenchmark.Result r = new NetworkBenchmark(config(n, ops)).run(new NetworkSync(THESIS));
            NetworkStats s = r.stats();
            out.printf("%7d %8d %8d %7d %10d %10d %8d %8d %7d %7d %7d | %8.3f %8.3f %8.3f %8.3f %8d %10d %10d %10d"
                    + " %8d%n", n, s.newTrees, s.insertions, s.joins, s.cycleKept, s.cycleDropped, s.decreases, s.increases,
                    s.removals, s.replacements, s.splits, sec(r.mstNanos()), sec(r.referenceNanos()),
                    sec(r.drainNanos()), sec(r.opNanos() + r.drainNanos()), s.referenceChanges, s.factorsComputed,
                    s.factorsChanged, s.replacementScans, s.pathQueries());
            out.flush();
        }
        if (naiveNodes > 0) {
            naive(out);
        }
        return 0;
    }

    private void naive(PrintWriter out) {
        NetworkSync net = new NetworkSync(THESIS);
        NetworkBenchmark.Naive nv = new NetworkBenchmark(config(naiveNodes, ops)).runNaive(net, naiveSamples);
        NetworkBenchmark.Result inc = new NetworkBenchmark(config(naiveNodes, ops))
                .run(new NetworkSync(THESIS));
        out.printf("%nnaive from-scratch baseline, %d nodes, same workload:%n", naiveNodes);
        out.printf("  reference node: centroid by DFS after each of %d forest changes: %.3f s"
                + " (incremental %.3f s: %.0fx); disagreements with the incremental one: %d%n",
                nv.referenceRuns(), sec(nv.referenceNanos()), sec(inc.referenceNanos()),
                ratio(nv.referenceNanos(), inc.referenceNanos()), nv.referenceMismatches());
        long mst = nv.mstNanosPerRun() * nv.mstRuns();
        out.printf("  spanning forest: Kruskal %.3f ms per state x %d operations = %.1f s extrapolated"
                + " (incremental %.3f s: %.0fx)%n", nv.mstNanosPerRun() / 1e6, nv.mstRuns(), sec(mst),
                sec(inc.mstNanos()), ratio(mst, inc.mstNanos()));
        long prop = nv.propagationNanosPerRun() * nv.propagationRuns();
        out.printf("  factors: whole-tree propagation %.3f ms x %d forest changes = %.1f s extrapolated"
                + " (incremental %.3f s: %.0fx)%n", nv.propagationNanosPerRun() / 1e6, nv.propagationRuns(),
                sec(prop), sec(inc.drainNanos()), ratio(prop, inc.drainNanos()));
        out.printf("  (forest and propagation timed on %d sampled states)%n", nv.samples());
    }

    private NetworkBenchmark.Config config(int n, int m) {
        return new NetworkBenchmark.Config(n, m, seed, decrease, increase, remove, drainEvery);
    }

    private static double sec(long nanos) {
        return nanos / 1e9;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.NaN : (double) a / b;
    }
}
