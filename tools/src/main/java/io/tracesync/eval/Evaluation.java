package io.tracesync.eval;

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
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A simulated run replayed through tracesync and measured against the ground truth, beside the baselines replayed
 * on the same messages: tracesync along its spanning tree, a static reference instead of the centroid
 * [Jabbarifar 2013, Fig. 5.10], the Trace Compass policy, Duda's regression, and the Zipkin/Jaeger midpoint.
 */
public final class Evaluation {

    /** How to replay: docs/ACCURACY.md and {@code tracesync evaluate --help} explain each. */
    public record Options(Path run, Duration interval, Duration horizon, LinkWeight weight, NetworkMethod network,
            NetworkIntervals.Weighting weighting, Duration ahead, boolean knownMinDelays,
            List<Duration> compareHorizons, Path factorsFile, Path reportDir) {
    }

    /** The printed summary, and the report's path where one was written. */
    public record Result(String summary, Path report) {
    }

    private final Options o;

    private Evaluation(Options o) {
        this.o = o;
    }

    /**
     * Replays the run.
     *
     * @throws PairsCsv.InputException if its pairs cannot be read
     * @throws IllegalArgumentException if the run is inconsistent
     */
    public static Result run(Options options) throws IOException {
        return new Evaluation(options).run();
    }

    private Result run() throws IOException {
        StringWriter summary = new StringWriter();
        PrintWriter out = new PrintWriter(summary);
        Path pairs = o.run().resolve("truth-pairs.csv");
        GroundTruth groundTruth = GroundTruth.read(o.run());
        TrueClocks truth = TrueClocks.of(groundTruth);
        TreeSet<String> names = new TreeSet<>();
        groundTruth.nodes().forEach(names::add);
        String first = names.first();
        long t0 = System.nanoTime();
        NetworkOptions options = NetworkOptions.DEFAULT.withWeight(o.weight()).withMethod(o.network());
        NetworkPolicy tracesync = new NetworkPolicy(options, o.weighting());
        List<Replay.Result> replays;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            replays = Replay.run(in, pairs.toString(), linkOptions(o.horizon(), truth),
                    List.of(tracesync,
                            new NetworkPolicy(options.withMethod(NetworkMethod.TREE), o.weighting()),
                            new NetworkPolicy(options.withPinnedReference(first), o.weighting()),
                            new TraceCompassPolicy(), new DudaRegressionPolicy(), new MidpointPolicy()),
                    o.interval().toNanos());
        }
        Replay.Result replay = replays.get(0);
        Map<LinkKey, LinkChecks> checks;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            checks = Metrics.linkChecks(in, pairs.toString(), replay, truth);
        }
        MidpointBaseline.Comparison baseline;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            baseline = MidpointBaseline.run(in, pairs.toString(), replay, truth);
        }
        if (o.factorsFile() != null) {
            try (Writer w = Files.newBufferedWriter(o.factorsFile())) {
                replay.writeFactors(w);
            }
        }
        long aheadNs = o.ahead().toNanos();
        ErrorStats errors = Metrics.factorErrors(replay, truth, aheadNs);
        out.printf("replayed %s: %d factor rows in %.1f s%n%n", o.run(), replay.factors().size(),
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
        for (Duration h : o.compareHorizons()) {
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                Replay.Result r = Replay.run(in, pairs.toString(), linkOptions(h, truth),
                        List.of(new NetworkPolicy(options, o.weighting())), o.interval().toNanos()).get(0);
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
        Path written = null;
        if (o.reportDir() != null) {
            long start = replay.links().values().stream().mapToLong(LinkTiming::firstPairTrueNs).min().orElse(0);
            written = HtmlReport.write(o.reportDir(), summary.toString(), replay, tracesync.tree(), truth,
                    start, 4);
        }
        return new Result(summary.toString(), written);
    }

    /** Per link: the o.horizon(), and with --known-min-delays the link's minimum delays. */
    private Function<LinkKey, LinkOptions> linkOptions(Duration h, TrueClocks truth) {
        LinkOptions options = new LinkOptions(h.toNanos(), 0, 0);
        return k -> o.knownMinDelays() ? options.withMinDelays(lowered(truth.minDelayNs(k.a(), k.b())),
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
