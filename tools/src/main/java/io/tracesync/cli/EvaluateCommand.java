package io.tracesync.cli;

import io.tracesync.app.DurationConverter;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.eval.DudaRegressionPolicy;
import io.tracesync.eval.ErrorStats;
import io.tracesync.eval.HtmlReport;
import io.tracesync.eval.LinkChecks;
import io.tracesync.eval.LinkTiming;
import io.tracesync.eval.Metrics;
import io.tracesync.eval.MidpointBaseline;
import io.tracesync.eval.MidpointPolicy;
import io.tracesync.eval.NetworkPolicy;
import io.tracesync.eval.Replay;
import io.tracesync.eval.TraceCompassPolicy;
import io.tracesync.eval.TrueClocks;
import io.tracesync.files.PairsCsv;
import io.tracesync.sim.GroundTruth;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tracesync evaluate}: replays a simulated run through tracesync and measures its answers against the
 * ground truth, beside the baselines replayed on the same messages: a static reference instead of the
 * centroid [Jabbarifar 2013, Fig. 5.10], the Trace Compass policy, Duda's regression, and the Zipkin/Jaeger midpoint.
 */
@Command(name = "evaluate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replay a run written by 'tracesync simulate' through tracesync (factors every interval of "
                + "true time) and measure the answers against the ground truth: true error, share inside the "
                + "guaranteed bounds, message inversions and messages faster than the minimum delay after "
                + "correction, time to the first ACCURATE link; beside the same replay with a static reference "
                + "(the first node), the Trace Compass policy (first node as root, fewest-hop paths), Duda's "
                + "linear regression, and the Zipkin/Jaeger midpoint heuristic on the same request/response "
                + "exchanges."})
final class EvaluateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--run", paramLabel = "DIR", required = true,
            description = "Output directory of 'tracesync simulate'.")
    Path run;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "True time between two recomputations of the factors (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--horizon", paramLabel = "DURATION", defaultValue = "30m", converter = DurationConverter.class,
            description = "Sliding horizon per link, in link time, or none (default: ${DEFAULT-VALUE}).")
    Duration horizon;

    @Option(names = "--weight", paramLabel = "WEIGHT", defaultValue = "slope-accuracy",
            converter = SyncPairsCommand.WeightConverter.class,
            description = "Link weight of tracesync's spanning tree: slope-accuracy or bound-width (default: "
                    + "${DEFAULT-VALUE}).")
    LinkWeight weight;

    @Option(names = "--network", paramLabel = "METHOD", defaultValue = "all-links",
            converter = SyncPairsCommand.MethodConverter.class,
            description = "How tracesync's first row gets its factors: all-links (every link's interval, a "
                    + "least-squares estimate inside it) or tree (along the spanning tree); the tree always has a "
                    + "row of its own (default: ${DEFAULT-VALUE}).")
    NetworkMethod network;

    @Option(names = "--weighting", paramLabel = "W", defaultValue = "inverse-width",
            converter = WeightingConverter.class,
            description = "Weights of the least-squares fit: inverse-width, inverse-width-squared or "
                    + "inverse-slope-accuracy (default: ${DEFAULT-VALUE}).")
    NetworkIntervals.Weighting weighting;

    @Option(names = "--ahead", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Sample each factor once, this long after it was computed, instead of while it is in "
                    + "force: how a factor kept by a consumer ages (default: ${DEFAULT-VALUE}, off).")
    Duration ahead;

    @Option(names = "--known-min-delays",
            description = "Give the link core every link's true minimum delays, lowered by 0.1 % to hold on any "
                    + "clock of under 1000 ppm (Ashton's correction, as if measured beforehand).")
    boolean knownMinDelays;

    @Option(names = "--compare-horizons", paramLabel = "DURATION", split = ",", converter = DurationConverter.class,
            description = "Also replay tracesync alone with each of these horizons (e.g. 30s,2m,none) and compare "
                    + "(baseline 5: a sliding horizon versus none under wandering clocks).")
    List<Duration> compareHorizons = new ArrayList<>();

    @Option(names = "--factors", paramLabel = "FILE",
            description = "Also write the factors over time (true_ns,node,reference,slope,offset,up_ns,down_ns).")
    Path factorsFile;

    @Option(names = "--report", paramLabel = "DIR",
            description = "Also write report.html (self-contained) and PNG plots of the accuracy over time there.")
    Path reportDir;

    @Override
    public Integer call() throws IOException {
        StringWriter summary = new StringWriter();
        PrintWriter out = new PrintWriter(summary);
        PrintWriter err = spec.commandLine().getErr();
        if (interval.isZero() || interval.isNegative()) {
            err.println("--interval must be positive");
            return 2;
        }
        Path pairs = run.resolve("truth-pairs.csv");
        if (!Files.isRegularFile(pairs)) {
            err.println("error: " + pairs + " not found: --run takes an output directory of 'tracesync simulate'");
            return 2;
        }
        GroundTruth groundTruth = GroundTruth.read(run);
        TrueClocks truth = TrueClocks.of(groundTruth);
        TreeSet<String> names = new TreeSet<>();
        groundTruth.nodes().forEach(names::add);
        String first = names.first();
        long t0 = System.nanoTime();
        NetworkOptions options = NetworkOptions.DEFAULT.withWeight(weight).withMethod(network);
        NetworkPolicy tracesync = new NetworkPolicy(options, weighting);
        List<Replay.Result> replays;
        Replay.Result replay;
        Map<LinkKey, LinkChecks> checks;
        MidpointBaseline.Comparison baseline;
        try {
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                replays = Replay.run(in, pairs.toString(), linkOptions(horizon, truth),
                        List.of(tracesync,
                                new NetworkPolicy(options.withMethod(NetworkMethod.TREE), weighting),
                                new NetworkPolicy(options.withPinnedReference(first), weighting),
                                new TraceCompassPolicy(), new DudaRegressionPolicy(), new MidpointPolicy()),
                        interval.toNanos());
            }
            replay = replays.get(0);
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                checks = Metrics.linkChecks(in, pairs.toString(), replay, truth);
            }
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                baseline = MidpointBaseline.run(in, pairs.toString(), replay, truth);
            }
        } catch (PairsCsv.InputException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        if (factorsFile != null) {
            try (Writer w = Files.newBufferedWriter(factorsFile)) {
                replay.writeFactors(w);
            }
        }
        long aheadNs = ahead.toNanos();
        ErrorStats errors = Metrics.factorErrors(replay, truth, aheadNs);
        out.printf("replayed %s: %d factor rows in %.1f s%n%n", run, replay.factors().size(),
                (System.nanoTime() - t0) / 1e9);
        out.printf("%-44s %9s %12s %12s %12s %9s %10s %10s%n", "", "samples", "median µs", "p99 µs", "max µs",
                "inside %", "width µs", "max w µs");
        row(out, "tracesync: node vs its reference", errors);
        String[] labels = {"tracesync, spanning tree: node vs reference", "static reference " + first + ": node vs it",
            "Trace Compass policy: node vs its reference", "Duda regression: node vs its reference",
            "midpoint, composed: node vs its reference"};
        for (int i = 0; i < labels.length; i++) {
            row(out, labels[i], Metrics.factorErrors(replays.get(i + 1), truth, aheadNs));
        }
        row(out, "tracesync: per exchange (same as below)", baseline.tracesync());
        row(out, "Zipkin/Jaeger midpoint: per exchange", baseline.midpoint());
        for (Duration h : compareHorizons) {
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                Replay.Result r = Replay.run(in, pairs.toString(), linkOptions(h, truth),
                        List.of(new NetworkPolicy(options, weighting)), interval.toNanos()).get(0);
                row(out, "tracesync, horizon " + (h.isZero() ? "none" : h.toString().substring(2).toLowerCase())
                        + ": node vs ref.", Metrics.factorErrors(r, truth, aheadNs));
            }
        }
        long corrected = checks.values().stream().mapToLong(LinkChecks::corrected).sum();
        long inversions = checks.values().stream().mapToLong(LinkChecks::inversions).sum();
        long fast = checks.values().stream().mapToLong(LinkChecks::fasterThanMinimum).sum();
        out.printf("%nafter correction by tracesync: %d messages, %d inversions, %d faster than their minimum delay%n",
                corrected, inversions, fast);
        long[] toAccurate = replay.links().values().stream().map(LinkTiming::timeToAccurateNs)
                .filter(OptionalLong::isPresent).mapToLong(OptionalLong::getAsLong).sorted().toArray();
        out.printf("links ACCURATE: %d of %d; time to the first ACCURATE estimate: median %s, max %s%n",
                toAccurate.length, replay.links().size(), ms(toAccurate, toAccurate.length / 2),
                ms(toAccurate, toAccurate.length - 1));
        out.flush();
        PrintWriter console = spec.commandLine().getOut();
        console.print(summary);
        if (reportDir != null) {
            long start = replay.links().values().stream().mapToLong(LinkTiming::firstPairTrueNs).min().orElse(0);
            console.println("report: " + HtmlReport.write(reportDir, summary.toString(), replay, tracesync.tree(), truth,
                    start, 4));
        }
        console.flush();
        return 0;
    }

    /** {@link NetworkIntervals.Weighting} as users write it, e.g. {@code inverse-width}. */
    static final class WeightingConverter implements picocli.CommandLine.ITypeConverter<NetworkIntervals.Weighting> {
        @Override
        public NetworkIntervals.Weighting convert(String value) {
            try {
                return NetworkIntervals.Weighting.valueOf(value.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "expected inverse-width, inverse-width-squared or inverse-slope-accuracy, not '" + value
                                + "'");
            }
        }
    }

    /** Per link: the horizon, and with --known-min-delays the link's minimum delays. */
    private Function<LinkKey, LinkOptions> linkOptions(Duration h, TrueClocks truth) {
        LinkOptions options = new LinkOptions(h.toNanos(), 0, 0);
        return k -> knownMinDelays ? options.withMinDelays(lowered(truth.minDelayNs(k.a(), k.b())),
                lowered(truth.minDelayNs(k.b(), k.a()))) : options;
    }

    /** A known minimum delay in true ns, as a lower bound on any clock running under 1000 ppm fast or slow. */
    private static long lowered(Long trueNs) {
        return trueNs == null ? 0 : trueNs - (trueNs + 999) / 1000;
    }

    private static void row(PrintWriter out, String label, ErrorStats s) {
        double inside = s.insidePercent();
        out.printf("%-44s %9d %12.3f %12.3f %12.3f %9s %10s %10s%n", label, s.count(), s.medianNs() / 1e3,
                s.p99Ns() / 1e3, s.maxNs() / 1e3, Double.isNaN(inside) ? "-" : String.format("%.2f", inside),
                Double.isNaN(s.medianWidthNs()) ? "-" : String.format("%.3f", s.medianWidthNs() / 1e3),
                Double.isNaN(s.maxWidthNs()) ? "-" : String.format("%.3f", s.maxWidthNs() / 1e3));
    }

    private static String ms(long[] sorted, int i) {
        return sorted.length == 0 ? "-" : String.format("%.1f ms", sorted[Math.max(0, i)] / 1e6);
    }
}
