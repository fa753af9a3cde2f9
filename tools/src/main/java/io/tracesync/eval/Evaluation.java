package io.tracesync.eval;

import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.core.network.SummaryGate;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A simulated run replayed through tracesync and measured against the ground truth, beside the baselines replayed
 * on the same messages: tracesync along its spanning tree, a static reference instead of one near the centre
 * [Jabbarifar 2013, Fig. 5.10], the Trace Compass policy, Duda's regression, and the Zipkin/Jaeger midpoint.
 */
public final class Evaluation {

    /** How to replay: docs/ACCURACY.md and {@code tracesync evaluate --help} explain each. */
    public record Options(Path run, Duration interval, Duration horizon, Double curvature, Duration shortestWindow,
            double stepPpb, Duration stepInterval, Duration excursion, double maxDriftPpm, LinkWeight weight,
            NetworkMethod network, ReferenceRule referenceRule,
            NetworkIntervals.Weighting weighting, double minChange, double factorsMinChange, Duration ahead,
            boolean knownMinDelays,
            List<Duration> compareHorizons, List<Age> ages, Duration historySpacing, Duration historyTolerance,
            Path factorsFile, Path reportDir) {
    }

    /** Which factors the history keeps, as the application's with the options' spacing and tolerance. */
    private HistoryGate historyGate() {
        return new HistoryGate(o.historySpacing().toNanos(), o.historyTolerance().toNanos());
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

    /** A policy replayed beside tracesync, and its row in the summary. */
    private record Baseline(String label, String meaning, FactorPolicy policy) {
    }

    private Result run() throws IOException {
        StringWriter summary = new StringWriter();
        PrintWriter out = new PrintWriter(summary);
        Path pairs = o.run().resolve("truth-pairs.csv");
        GroundTruth groundTruth = GroundTruth.read(o.run());
        TrueClocks truth = TrueClocks.of(groundTruth);
        long t0 = System.nanoTime();
        NetworkOptions options = NetworkOptions.DEFAULT.withWeight(o.weight()).withMethod(o.network())
                .withReferenceRule(o.referenceRule()).withWeightSpread(SummaryGate.weightSpread(o.minChange()))
                .withExcursion(model(o.horizon(), o.curvature()).excursionPs());
        SharedGate gate = new SharedGate(o.minChange());
        NetworkPolicy published = new NetworkPolicy(options, o.weighting(), gate, o.factorsMinChange());
        TreeSet<String> names = new TreeSet<>();
        groundTruth.nodes().forEach(names::add);
        List<Baseline> baselines = baselines(options, gate, published, names.first());
        Map<Baseline, Replay.Result> replays;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            replays = Replay.run(in, pairs.toString(), linkOptions(o.horizon(), o.curvature(), truth), baselines,
                    Baseline::policy, o.interval().toNanos());
        }
        Replay.Result replay = replays.get(baselines.get(0));
        Departures departures = departures(groundTruth, replay);
        Map<LinkKey, LinkChecks> checks;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            checks = Metrics.linkChecks(in, pairs.toString(), replay, truth,
                    t -> departures.pendingAt(t, 2 * replay.intervalNs()));
        }
        HistoryGate historyGate = historyGate();
        Optional<Age> lateAge = o.ages().stream().filter(a -> a.after() == null || !a.after().isZero()).findFirst();
        LateChecks lateChecks = null;
        if (lateAge.isPresent()) {
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                lateChecks = new LateChecks(lateAge.get(), publishedAndKept(replay, historyGate),
                        Metrics.linkChecksAfterTheFact(in, pairs.toString(), replay, truth, lateAge.get(),
                                historyGate, t -> departures.pendingAt(t, 2 * replay.intervalNs())));
            }
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
        double replayed = (System.nanoTime() - t0) / 1e9;
        long aheadNs = o.ahead().toNanos();
        List<SummaryRow> rows = new ArrayList<>();
        for (Baseline b : baselines) {
            rows.add(new SummaryRow(b.label(), b.meaning(), Metrics.factorErrors(replays.get(b), truth, aheadNs)));
        }
        rows.add(new SummaryRow("tracesync: per exchange (same as below)", "tracesync's relative error of the "
                + "two nodes of each request/response exchange, at the request's arrival.", baseline.tracesync()));
        rows.add(new SummaryRow("Zipkin/Jaeger midpoint: per exchange", "The offset a tracing UI takes from that "
                + "exchange alone: θ = ((sr − cs) − (cr − ss)) / 2.", baseline.midpoint()));
        rows.addAll(horizonRows(pairs, options, truth));
        ErrorStats live = aheadNs > 0 ? Metrics.factorErrors(replay, truth) : rows.get(0).errors();
        List<AgeErrors> late = Metrics.afterTheFact(replay, truth, o.ages(), historyGate);
        out.printf("replayed %s: %d factor rows in %.1f s%n%n", o.run(), replay.factors().size(), replayed);
        table(out, rows, live, late);
        Optional<Baseline> datasheet = baselines.stream().filter(b -> b.policy() instanceof DatasheetPolicy)
                .findFirst();
        if (datasheet.isPresent() && !o.ages().isEmpty()) {
            Replay.Result sheet = replays.get(datasheet.get());
            // the application's history keeps what its gate decides on the model's factors: the tolerance applied
            // to these bounds' middles would keep versions it does not, so these keep one per spacing
            HistoryGate spacingAlone = new HistoryGate(o.historySpacing().toNanos(), 0);
            datasheetTable(out, Metrics.factorErrors(sheet, truth),
                    Metrics.afterTheFactUnderDatasheet(sheet, truth, o.ages(), spacingAlone));
        }
        List<String> findings = findings(replay, checks, lateChecks, published, groundTruth, truth, departures);
        out.println();
        findings.forEach(out::println);
        out.flush();
        Path written = null;
        if (o.reportDir() != null) {
            long start = firstPairNs(replay);
            written = HtmlReport.write(o.reportDir(), new HtmlReport.Content(o.run().toString(),
                    groundTruth.parameters(), parameters(), rows, live, late, findings, replay, published.tree(),
                    truth, start));
        }
        return new Result(summary.toString(), written);
    }

    /**
     * tracesync as it publishes ({@code published}, first), then the policies replayed beside it on the same
     * messages; {@code first} is the node a static reference pins.
     */
    private List<Baseline> baselines(NetworkOptions options, SharedGate gate, NetworkPolicy published,
            String first) {
        String sampled = o.ahead().toNanos() > 0 ? "each factor sampled once, " + human(o.ahead())
                + " after it was computed" : "sampled every " + human(o.interval()) + " while a factor is in force";
        List<Baseline> baselines = new ArrayList<>(List.of(new Baseline("tracesync: node vs its reference",
                "The factors tracesync publishes (--network " + option(o.network()) + ", --weighting "
                        + option(o.weighting()) + ", --reference-rule " + o.referenceRule().label() + "): each "
                        + "node's true error against its reference's clock, " + sampled + "; inside % = share "
                        + "inside the guaranteed bounds, width = up + down.", published),
                new Baseline("tracesync, spanning tree: node vs reference", "The same links, each factor composed "
                        + "along the minimum spanning tree only [Jabbarifar 2013, ch. 5].",
                        new NetworkPolicy(options.withMethod(NetworkMethod.TREE), o.weighting(), gate,
                                o.factorsMinChange())),
                new Baseline("static reference " + first + ": node vs it", "tracesync with the reference pinned to "
                        + "the first node instead of one by its rule [Jabbarifar 2013, Fig. 5.10].",
                        new NetworkPolicy(options.withPinnedReference(first), o.weighting(), gate,
                                o.factorsMinChange())),
                new Baseline("Trace Compass policy: node vs its reference", "The same hulls, composed from the "
                        + "first node along fewest-hop paths over the ACCURATE links; no bounds [Poirier 2010, §2].",
                        new TraceCompassPolicy()),
                new Baseline("Duda regression: node vs its reference", "Per link the midpoint of the two "
                        + "directions' regression lines, composed as the Trace Compass policy; no bounds "
                        + "[Ashton 1995, §3].", new DudaRegressionPolicy()),
                new Baseline("midpoint, composed: node vs its reference", "Per link the offset of its latest "
                        + "request/response exchange (symmetric delays), composed along fewest-hop paths; no "
                        + "bounds.", new MidpointPolicy())));
        if (o.maxDriftPpm() > 0) {
            baselines.add(1, new Baseline("datasheet bound, R " + o.maxDriftPpm() + " ppm: node vs ref.", "The "
                    + "second guarantee: every node's interval under each clock's rate within ±R of true alone, from "
                    + "each link's latest messages carried by the slopes R allows, combined over every link "
                    + "(docs/LINK-CORE.md, \"The datasheet bound\").", new DatasheetPolicy(options)));
        }
        return baselines;
    }

    /** tracesync's first row again with each of {@code --compare-horizons}' horizons, each a replay of its own. */
    private List<SummaryRow> horizonRows(Path pairs, NetworkOptions options, TrueClocks truth) throws IOException {
        List<SummaryRow> rows = new ArrayList<>();
        for (Duration h : o.compareHorizons()) {
            try (BufferedReader in = Files.newBufferedReader(pairs)) {
                Replay.Result r = Replay.run(in, pairs.toString(), linkOptions(h, 0.0, truth),
                        List.of(new NetworkPolicy(options, o.weighting(), new SharedGate(o.minChange()),
                                o.factorsMinChange())),
                        o.interval().toNanos()).get(0);
                String horizon = h.isZero() ? "none" : human(h);
                rows.add(new SummaryRow("tracesync, horizon " + horizon + ": node vs ref.", "As the first row, "
                        + "the links keeping " + (h.isZero() ? "every pair" : "the last " + horizon + " of pairs")
                        + ".", Metrics.factorErrors(r, truth, o.ahead().toNanos())));
            }
        }
        return rows;
    }

    /** The summary's table, and the conversions after the fact where ages were asked. */
    private static void table(PrintWriter out, List<SummaryRow> rows, ErrorStats live, List<AgeErrors> late) {
        out.printf("%-44s %9s %12s %12s %12s %9s %10s %10s%n", "", "samples", "median µs", "p99 µs", "max µs",
                "inside %", "width µs", "max w µs");
        rows.forEach(r -> row(out, r.label(), r.errors()));
        if (!late.isEmpty()) {
            out.println();
            out.println("after the fact: the first row's samples converted again with the factor history known "
                    + "that long after each; newest: with the newest factor known then alone");
            out.printf("%-44s %9s %12s %12s %12s %9s %10s %9s %8s %8s %11s %11s%n", "", "samples", "median µs",
                    "p99 µs", "max µs", "inside %", "width µs", "interp. %", "error ×", "width ×", "newest µs",
                    "newest w µs");
            lateRow(out, "live: the factor in force", live, Double.NaN, 1, 1, null);
            late.forEach(a -> lateRow(out, lateLabel(a.age()), a.errors(), a.interpolatedPercent(),
                    a.errorRatio(live), a.widthRatio(live), a.newest()));
        }
    }

    /** The datasheet bound's samples converted again after the fact (its live row is the second of the summary). */
    private static void datasheetTable(PrintWriter out, ErrorStats live, List<AgeErrors> late) {
        out.println();
        out.println("after the fact under the datasheet alone: the datasheet bound's samples converted again with "
                + "the bounds known that long after each, those around each time intersected; newest: with the "
                + "newest known then");
        lateRow(out, "live: the datasheet bound in force", live, Double.NaN, 1, 1, null);
        late.forEach(a -> lateRow(out, "datasheet, " + lateLabel(a.age()), a.errors(), Double.NaN,
                a.errorRatio(live), a.widthRatio(live), a.newest()));
    }

    /** What the run showed beyond the errors: messages, links, summaries, turns, the daemons, the departures. */
    private List<String> findings(Replay.Result replay, Map<LinkKey, LinkChecks> checks, LateChecks late,
            NetworkPolicy published, GroundTruth groundTruth, TrueClocks truth, Departures departures) {
        long corrected = checks.values().stream().mapToLong(LinkChecks::corrected).sum();
        long inversions = checks.values().stream().mapToLong(LinkChecks::inversions).sum();
        long inWindows = checks.values().stream().mapToLong(LinkChecks::inversionsInWindows).sum();
        long fast = checks.values().stream().mapToLong(LinkChecks::fasterThanMinimum).sum();
        long[] toAccurate = replay.links().values().stream().map(LinkTiming::timeToAccurateNs)
                .filter(OptionalLong::isPresent).mapToLong(OptionalLong::getAsLong).sorted().toArray();
        String apart = departures.departures().isEmpty() ? ""
                : String.format(" (%d of them in the detection windows, %d elsewhere)", inWindows,
                        inversions - inWindows);
        List<String> findings = new ArrayList<>(List.of(String.format("after correction by tracesync: %d messages, "
                + "%d inversions%s, %d faster than their minimum delay", corrected, inversions, apart, fast),
                String.format("links ACCURATE: %d of %d; time to the first ACCURATE estimate: median %s, max %s",
                        toAccurate.length, replay.links().size(), ms(toAccurate, toAccurate.length / 2),
                        ms(toAccurate, toAccurate.length - 1)),
                String.format("link summaries let through to the network (links.min.change %s): %d, %.3f per link "
                        + "per second; applied (the last of each link's in a second, where it could move an answer): "
                        + "%d, %.3f", o.minChange(), published.summaries(), perLinkPerSecond(published.summaries(),
                        replay), published.applied(), perLinkPerSecond(published.applied(), replay)),
                String.format("factors published (factors.min.change %s): %d of %d evaluated", o.factorsMinChange(),
                        published.publications(), published.evaluations())));
        if (inversions > 0) {
            findings.add(invertedLinks(checks, firstPairNs(replay)));
        }
        if (late != null) {
            findings.addAll(late.findings(departures, firstPairNs(replay), String.format(
                    "factors.history.spacing %s, tolerance %s µs", human(o.historySpacing()),
                    o.historyTolerance().toNanos() / 1e3)));
        }
        LinkOptions model = model(o.horizon(), o.curvature());
        if (model.bending()) {
            long[] windows = model.windows();
            ObservedTurns turns = ObservedTurns.of(replay.ends(), groundTruth, windows[windows.length - 1]);
            if (turns.observed().length > 0) { // a run shorter than 1.5 × the longest window has no measure
                findings.add(turns.finding(model.curvaturePpbPerS()));
            }
        }
        if (!groundTruth.steps().isEmpty()) {
            findings.add(DaemonSteps.of(groundTruth.steps(), replay.links().keySet(), o.stepInterval().toNanos())
                    .finding(o.stepPpb()));
        }
        if (!groundTruth.slews().isEmpty()) {
            findings.add(DaemonOffsets.of(groundTruth.slews()).finding(o.excursion().toNanos()));
        }
        if (model.bending()) {
            findings.add(ObservedSteps.of(replay.ends()).finding());
        }
        Departures jumps = departures.jumps();
        if (!jumps.departures().isEmpty()) {
            findings.add(jumps.finding("clock jumps"));
        }
        Departures slews = departures.slews();
        if (!slews.departures().isEmpty()) {
            findings.add(slews.finding(String.format("the daemons' slews beyond link.excursion (offsets over %.1f µs)",
                    o.excursion().toNanos() / DaemonOffsets.PER_LINK / 1000)));
        }
        if (!departures.departures().isEmpty()) {
            findings.add(departures.outsideFinding(replay, truth));
        }
        if (!jumps.departures().isEmpty()) {
            findings.add(JumpWindows.of(replay, truth, jumps, historyGate()).finding());
        }
        return findings;
    }

    /**
     * The clocks' departures from the model the links were given: every jump, and where the model allows no
     * frequency steps ({@code link.step.ppb} 0), every slew of an offset beyond what {@code link.excursion} covers
     * (docs/LINK-CORE.md, "Offset excursions"); with steps allowed, a slew is two of them ({@link DaemonSteps}).
     */
    private Departures departures(GroundTruth groundTruth, Replay.Result replay) {
        List<Departures.Departure> all = new ArrayList<>();
        groundTruth.jumps().forEach(j -> all.add(Departures.Departure.of(j)));
        if (o.stepPpb() == 0) {
            DaemonOffsets.beyond(groundTruth.slews(), o.excursion().toNanos())
                    .forEach(s -> all.add(Departures.Departure.of(s)));
        }
        return Departures.of(all, replay.links());
    }

    /** The messages corrected after the fact: both ends with the factor histories known {@code age} later. */
    private record LateChecks(Age age, long[] publishedAndKept, Map<LinkKey, LinkChecks> checks) {

        List<String> findings(Departures departures, long startNs, String gate) {
            long inversions = checks.values().stream().mapToLong(LinkChecks::inversions).sum();
            long inWindows = checks.values().stream().mapToLong(LinkChecks::inversionsInWindows).sum();
            String apart = departures.departures().isEmpty() ? ""
                    : String.format(" (%d of them in the detection windows, %d elsewhere)", inWindows,
                            inversions - inWindows);
            List<String> out = new ArrayList<>(List.of(String.format("after correction after the fact (both ends "
                    + "converted with the factor histories known %s after the message's receipt): %d messages, %d "
                    + "inversions%s, %d faster than their minimum delay", age.label(),
                    checks.values().stream().mapToLong(LinkChecks::corrected).sum(), inversions, apart,
                    checks.values().stream().mapToLong(LinkChecks::fasterThanMinimum).sum())));
            if (inversions > 0) {
                out.add("  " + invertedLinks(checks, startNs));
            }
            out.add(String.format("the factor history (%s) keeps %d of the %d factors published (%.1f %%)", gate,
                    publishedAndKept[1], publishedAndKept[0], 100.0 * publishedAndKept[1] / Math.max(1,
                            publishedAndKept[0])));
            return out;
        }
    }

    /**
     * The versions the replay published — its rows less those that hold the node's factor of the row before, as a
     * subscriber holds it — and how many of them the history keeps, each node's in drain order.
     */
    private static long[] publishedAndKept(Replay.Result replay, HistoryGate gate) {
        Map<String, FactorRow> previous = new HashMap<>();
        Map<String, FactorVersion> lastKept = new HashMap<>();
        Map<String, FactorVersion> published = new HashMap<>();
        long[] counts = new long[2];
        for (FactorRow r : replay.factors()) {
            FactorRow before = previous.put(r.node(), r);
            if (before != null && before.factor().equals(r.factor()) && before.reference().equals(r.reference())) {
                continue;
            }
            counts[0]++;
            FactorVersion v = new FactorVersion(counts[0], r.reference(), r.factor(), 0, r.steadyFromNs());
            for (FactorVersion k : gate.kept(lastKept.get(r.node()), published.put(r.node(), v), v)) {
                lastKept.put(r.node(), k);
                counts[1]++;
            }
        }
        return counts;
    }

    /** Where the inversions fall: the three links with the most (ties in the links' order), when and how deep. */
    private static String invertedLinks(Map<LinkKey, LinkChecks> checks, long startNs) {
        return "the inversions by link, most first: " + checks.entrySet().stream()
                .filter(e -> e.getValue().inversions() > 0)
                .sorted(Map.Entry.comparingByValue(Comparator.comparingLong(LinkChecks::inversions).reversed()))
                .limit(3).map(e -> String.format("%s %d (received at %.1f–%.1f s of the run, at most %.1f µs before "
                        + "their send)", e.getKey(), e.getValue().inversions(),
                        (e.getValue().firstInversionNs() - startNs) / 1e9,
                        (e.getValue().lastInversionNs() - startNs) / 1e9, e.getValue().deepestInversionNs() / 1000))
                .collect(Collectors.joining("; "));
    }

    /** How many per link and per second from the replay's first pair to its end. */
    private static double perLinkPerSecond(long summaries, Replay.Result replay) {
        return summaries * 1e9 / Math.max(1, replay.links().size()) / Math.max(1, replay.endNs() - firstPairNs(replay));
    }

    /** The true time of the replay's first pair. */
    private static long firstPairNs(Replay.Result replay) {
        return replay.links().values().stream().mapToLong(LinkTiming::firstPairTrueNs).min().orElse(replay.endNs());
    }

    /** The replay's own settings, as the report lists them. */
    private Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("interval", human(o.interval()));
        p.put("horizon", o.horizon().isZero() ? "none" : human(o.horizon()));
        LinkOptions model = model(o.horizon(), o.curvature());
        p.put("curvature", model.bending() ? model.curvaturePpbPerS() + " ppb/s, windows from "
                + human(o.shortestWindow()) : "0 (linear clocks)");
        if (model.stepPpb() > 0) {
            p.put("frequency steps", model.stepPpb() + " ppb within any " + human(o.stepInterval()));
        }
        p.put("weight", option(o.weight()));
        p.put("network", option(o.network()));
        p.put("reference-rule", o.referenceRule().label());
        p.put("weighting", option(o.weighting()));
        p.put("links.min.change", String.valueOf(o.minChange()));
        p.put("factors.min.change", String.valueOf(o.factorsMinChange()));
        p.put("ahead", human(o.ahead()));
        p.put("history spacing", human(o.historySpacing()));
        p.put("history tolerance", o.historyTolerance().toNanos() / 1e3 + " µs");
        p.put("known minimum delays", String.valueOf(o.knownMinDelays()));
        return p;
    }

    /** An enum constant as the command line spells it, e.g. {@code all-links}. */
    private static String option(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String human(Duration d) {
        return d.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    /** Per link: horizon h, curvature ρ′ (ppb/s), and with --known-min-delays the link's minimum delays. */
    private Function<LinkKey, LinkOptions> linkOptions(Duration h, Double curvature, TrueClocks truth) {
        LinkOptions options = model(h, curvature);
        return k -> o.knownMinDelays() ? options.withMinDelays(lowered(truth.minDelayNs(k.a(), k.b())),
                lowered(truth.minDelayNs(k.b(), k.a()))) : options;
    }

    /**
     * The links' model with horizon h and curvature ρ′ (ppb/s; null: the default), with the frequency steps and the
     * excursion asked for where it bends (the linear baselines take neither).
     */
    private LinkOptions model(Duration h, Double curvature) {
        LinkOptions model = LinkOptions.withModel(h.toNanos(), 0, 0, curvature, o.shortestWindow().toNanos())
                .withMaxDrift(o.maxDriftPpm());
        if (!model.bending()) {
            return model;
        }
        LinkOptions stepping = o.stepPpb() == 0 ? model : model.withSteps(o.stepPpb(), o.stepInterval().toNanos());
        return stepping.withExcursion(o.excursion().toNanos());
    }

    /** A known minimum delay in true ns ({@link GroundTruth#asKnown}), 0 where the nodes do not talk. */
    private static long lowered(Long trueNs) {
        return trueNs == null ? 0 : GroundTruth.asKnown(trueNs);
    }

    private static void row(PrintWriter out, String label, ErrorStats s) {
        double inside = s.insidePercent();
        out.printf("%-44s %9d %12.3f %12.3f %12.3f %9s %10s %10s%n", label, s.count(), s.medianNs() / 1e3,
                s.p99Ns() / 1e3, s.maxNs() / 1e3, Double.isNaN(inside) ? "-" : String.format("%.2f", inside),
                Double.isNaN(s.medianWidthNs()) ? "-" : String.format("%.3f", s.medianWidthNs() / 1e3),
                Double.isNaN(s.maxWidthNs()) ? "-" : String.format("%.3f", s.maxWidthNs() / 1e3));
    }

    /**
     * A row of the conversions after the fact: the main table's first six columns, then against live, then the
     * median error and width of the newest factor alone ({@code newest}; null: -).
     */
    private static void lateRow(PrintWriter out, String label, ErrorStats s, double interpolatedPercent,
            double errorRatio, double widthRatio, ErrorStats newest) {
        out.printf("%-44s %9d %12.3f %12.3f %12.3f %9s %10s %9s %8s %8s %11s %11s%n", label, s.count(),
                s.medianNs() / 1e3, s.p99Ns() / 1e3, s.maxNs() / 1e3, fixed(s.insidePercent(), 2),
                fixed(s.medianWidthNs() / 1e3, 3), fixed(interpolatedPercent, 2), fixed(errorRatio, 3),
                fixed(widthRatio, 3), newest == null ? "-" : fixed(newest.medianNs() / 1e3, 3),
                newest == null ? "-" : fixed(newest.medianWidthNs() / 1e3, 3));
    }

    /** An age's row: {@code 10s after}, {@code at the end of the run}. */
    private static String lateLabel(Age age) {
        return age.after() == null ? "at the end of the run" : age.label() + " after";
    }

    /** v with {@code decimals} decimals; - for NaN. */
    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format("%." + decimals + "f", v);
    }

    private static String ms(long[] sorted, int i) {
        return sorted.length == 0 ? "-" : String.format("%.1f ms", sorted[Math.max(0, i)] / 1e6);
    }
}
