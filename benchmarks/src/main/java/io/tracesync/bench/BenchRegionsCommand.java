package io.tracesync.bench;

import io.tracesync.console.PluggedCommand;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-regions}: the network solved whole and in regions, cost and width side by side. */
@Command(name = "bench-regions",
        header = "Benchmark the network solved in regions against the whole network.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"On connected random networks of regions (blocks of nodes, a fraction of the links between "
                + "two of them) of linear clocks, each round a fraction of the links changes and the network is "
                + "solved whole (updates, drain and the evaluation from every link) and in regions (each region on "
                + "its own, then the backbone of the links between regions). Prints, in ms (median of the rounds): "
                + "the whole network; the regional updates, the busiest region, the backbone with its size (each "
                + "with its links' updates), and the busiest of 1, 2 and 4 tasks the regions are dealt to in turn "
                + "(the backbone on a task of its own); then the ratio of each node's "
                + "regional interval width to the whole network's (median, p90, p99, max) and how many factors of "
                + "both held the true clocks."})
public final class BenchRegionsCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", split = ",", paramLabel = "N", defaultValue = "10000,60000",
            description = "Network sizes, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> nodes;

    @Option(names = "--links-per-node", paramLabel = "K", defaultValue = "20",
            description = "Links per node (default: ${DEFAULT-VALUE}).")
    int linksPerNode;

    @Option(names = "--regions", split = ",", paramLabel = "R", defaultValue = "16,64",
            description = "Region counts, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> regions;

    @Option(names = "--crossing", split = ",", paramLabel = "FRACTION", defaultValue = "0.01,0.05",
            description = "Fractions of the links (beyond each region's tree) between two regions, comma-separated "
                    + "(default: ${DEFAULT-VALUE}).")
    List<Double> crossing;

    @Option(names = "--per-pair", split = ",", paramLabel = "K", defaultValue = "0,4",
            description = "Links between regions the backbone holds per pair of regions, the lightest, "
                    + "comma-separated; 0: all (default: ${DEFAULT-VALUE}).")
    List<Integer> perPair;

    @Option(names = "--changed", paramLabel = "FRACTION", defaultValue = "0.1",
            description = "Fraction of the links with a new estimate between two evaluations (default: "
                    + "${DEFAULT-VALUE}, about the summaries per link per second the network task applies under "
                    + "the clock model).")
    double changed;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "5",
            description = "Rounds per line; the median is printed (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (nodes.stream().anyMatch(n -> n < 2) || linksPerNode < 1 || rounds < 1 || !(changed > 0 && changed <= 1)
                || regions.stream().anyMatch(r -> r < 1) || perPair.stream().anyMatch(k -> k < 0) || crossing.stream().anyMatch(c -> !(c >= 0 && c <= 1))) {
            spec.commandLine().getErr().println("error: need --nodes >= 2, --links-per-node >= 1, --rounds >= 1, "
                    + "--regions >= 1, --per-pair >= 0, 0 <= --crossing <= 1 and 0 < --changed <= 1");
            return 2;
        }
        // the JIT compilers settle on an untimed run of the first line's size first
        new RegionsBenchmark(new RegionsBenchmark.Config(nodes.get(0), nodes.get(0) * linksPerNode, regions.get(0),
                crossing.get(0), perPair.get(0), changed, 2, seed + 1)).run();
        out.printf("%7s %8s %4s %5s %4s | %8s | %8s %8s %8s %6s %7s | %23s | %23s | %s%n", "nodes", "links", "regs",
                "cross", "pair", "whole", "updates", "region", "backbone", "bnodes", "blinks", "busiest of 1/2/4 tasks",
                "width ratio p50/90/99/max", "holding");
        for (int n : nodes) {
            for (int r : regions) {
                for (double c : crossing) {
                    for (int k : perPair) {
                        RegionsBenchmark b = new RegionsBenchmark(new RegionsBenchmark.Config(n, n * linksPerNode, r,
                                c, k, changed, rounds, seed));
                        b.print(b.run(), out);
                    }
                }
            }
        }
        return 0;
    }
}
