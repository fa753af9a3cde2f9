package io.tracesync.bench;

import io.tracesync.console.PluggedCommand;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-intervals}: the cost of the network-wide intervals and least-squares estimate. */
@Command(name = "bench-intervals",
        header = "Benchmark the factors from every link.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Benchmarks the factors from every link on connected random networks of linear clocks: "
                + "each round a fraction of the links changes (updates: their estimates applied and the tree factors "
                + "drained), then one evaluation from every link and one along the spanning tree; each timed, in ms "
                + "(median of the rounds)."})
public final class BenchIntervalsCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", split = ",", paramLabel = "N", defaultValue = "1000,10000",
            description = "Network sizes, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> nodes;

    @Option(names = "--links-per-node", paramLabel = "K", defaultValue = "10",
            description = "Links per node (default: ${DEFAULT-VALUE}, 100,000 links at 10,000 nodes).")
    int linksPerNode;

    @Option(names = "--changed", paramLabel = "FRACTION", defaultValue = "0.01",
            description = "Fraction of the links with a new estimate between two evaluations (default: "
                    + "${DEFAULT-VALUE}).")
    double changed;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "11",
            description = "Rounds per size; the median is printed (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--excursion", paramLabel = "MICROS", defaultValue = "0",
            description = "Each link's offset excursion Φ in µs, as link.excursion: its bounds hold it on each side "
                    + "and every factor counts it per link of its path (default: ${DEFAULT-VALUE}: none).")
    double excursionUs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (nodes.stream().anyMatch(n -> n < 2) || linksPerNode < 1 || rounds < 1 || !(changed > 0 && changed <= 1)
                || !(excursionUs >= 0 && excursionUs <= 1e6)) {
            spec.commandLine().getErr().println("error: need --nodes >= 2, --links-per-node >= 1, --rounds >= 1, "
                    + "0 < --changed <= 1 and 0 <= --excursion <= 1000000");
            return 2;
        }
        long excursionPs = Math.round(excursionUs * 1e6);
        // the JIT compilers settle on an untimed run of the largest size first
        int largest = nodes.stream().max(Integer::compare).orElseThrow();
        new IntervalsBenchmark(new IntervalsBenchmark.Config(largest, largest * linksPerNode, changed, rounds,
                seed + 1, excursionPs)).run(new PrintWriter(java.io.Writer.nullWriter()));
        out.printf("%8s %8s %8s | %10s | %12s %8s | %10s%n", "nodes", "links", "changed", "updates ms", "all links ms",
                "CG iter", "tree ms");
        for (int n : nodes) {
            new IntervalsBenchmark(new IntervalsBenchmark.Config(n, n * linksPerNode, changed, rounds, seed,
                    excursionPs)).run(out);
        }
        return 0;
    }
}
