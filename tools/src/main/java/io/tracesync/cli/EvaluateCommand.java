package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.eval.Age;
import io.tracesync.eval.Evaluation;
import io.tracesync.files.PairsCsv;
import io.tracesync.streams.config.OptionDefaults;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tracesync evaluate}: the options of an {@link Evaluation}.
 */
@Command(name = "evaluate",
        header = "Measure a simulated run's factors against the ground truth, beside baselines.",
        mixinStandardHelpOptions = true, sortOptions = false, defaultValueProvider = OptionDefaults.class,
        description = {"Replays a run written by 'tracesync simulate' through tracesync (factors every interval of "
                + "true time) and measures the answers against the ground truth: true error, share inside the "
                + "guaranteed bounds, message inversions and messages faster than the minimum delay after "
                + "correction, time to the first ACCURATE link; the same samples converted after the fact with the "
                + "factor history; beside the same replay with a static reference "
                + "(the first node), the Trace Compass policy (first node as root, fewest-hop paths), Duda's "
                + "linear regression, and the Zipkin/Jaeger midpoint heuristic on the same request/response "
                + "exchanges."})
final class EvaluateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--run", paramLabel = "DIR", required = true,
            description = "Output directory of 'tracesync simulate'.")
    Path run;

    @Option(names = "--interval", paramLabel = "DURATION", descriptionKey = "factors.emit.interval",
            converter = DurationConverter.class,
            description = "True time between two recomputations of the factors (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--horizon", paramLabel = "DURATION", descriptionKey = "link.horizon",
            converter = DurationConverter.class,
            description = "Sliding horizon per link, in link time, or none (default: ${DEFAULT-VALUE}).")
    Duration horizon;

    @Mixin
    ClockModelOptions model;

    @Option(names = "--weight", paramLabel = "WEIGHT", descriptionKey = "network.weight",
            converter = Converters.WeightConverter.class,
            description = "Link weight of tracesync's spanning tree: slope-accuracy or bound-width (default: "
                    + "${DEFAULT-VALUE}).")
    LinkWeight weight;

    @Option(names = "--reference-rule", paramLabel = "RULE", descriptionKey = "network.reference.rule",
            converter = Converters.ReferenceRuleConverter.class,
            description = "Each component's reference: most-links (the node with the most links in the spanning "
                    + "forest's graph) or centroid (of the spanning tree) (default: ${DEFAULT-VALUE}).")
    ReferenceRule referenceRule;

    @Option(names = "--network", paramLabel = "METHOD", descriptionKey = "network.method",
            converter = Converters.MethodConverter.class,
            description = "How tracesync's first row gets its factors: all-links (every link's interval, a "
                    + "least-squares estimate inside it) or tree (along the spanning tree); the tree always has a "
                    + "row of its own (default: ${DEFAULT-VALUE}).")
    NetworkMethod network;

    @Option(names = "--weighting", paramLabel = "W", defaultValue = "inverse-width",
            converter = Converters.WeightingConverter.class,
            description = "Weights of the least-squares fit: inverse-width, inverse-width-squared or "
                    + "inverse-slope-accuracy (default: ${DEFAULT-VALUE}).")
    NetworkIntervals.Weighting weighting;

    @Option(names = "--min-change", paramLabel = "FRACTION", descriptionKey = "links.min.change",
            description = "Let a link's summary through to the network core as the stream's link step does at "
                    + "links.min.change = FRACTION: when its quality changes, or the summary last let through, "
                    + "carried to the link's latest time, is wider than 1 + FRACTION times the link's bounds, or "
                    + "its estimate moved by more than that fraction of them; 0: every change (default: "
                    + "${DEFAULT-VALUE}, the application's).")
    double minChange;

    @Option(names = "--factors-min-change", paramLabel = "FRACTION", descriptionKey = "factors.min.change",
            description = "Publish a node's factor as the stream's network task does at factors.min.change = "
                    + "FRACTION: a new reference, a bound appearing or vanishing, or a bound or the converted time "
                    + "moving by more than that fraction of the bound; each sample then takes the factor a "
                    + "subscriber holds. 0: every factor evaluated (default: ${DEFAULT-VALUE}, the application's).")
    double factorsMinChange;

    @Option(names = "--ahead", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Sample each factor once, this long after it was computed, instead of while it is in "
                    + "force: how a factor kept by a consumer ages (default: ${DEFAULT-VALUE}, off).")
    Duration ahead;

    @Option(names = "--known-min-delays",
            description = "Give the link core every link's true minimum delays, lowered by 0.1 %% to hold on any "
                    + "clock of under 1000 ppm (Ashton's correction, as if measured beforehand).")
    boolean knownMinDelays;

    @Option(names = "--compare-horizons", paramLabel = "DURATION", split = ",", converter = DurationConverter.class,
            description = "Also replay tracesync alone with each of these fixed horizons and linear clocks (e.g. "
                    + "30s,2m,none) and compare (baseline 5: a sliding horizon versus none under wandering clocks).")
    List<Duration> compareHorizons = new ArrayList<>();

    @Option(names = "--ages", paramLabel = "AGE", split = ",", defaultValue = "0s,10s,1m,10m,1h,end",
            converter = Converters.AgeConverter.class,
            description = "How long after the fact every sample of the first row is converted again, each a "
                    + "duration or end (the end of the run): with the node's factor history holding every factor "
                    + "drained by then, beside the factor in force (default: ${DEFAULT-VALUE}).")
    List<Age> ages;

    @Option(names = "--history-spacing", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = TracesyncConfig.FACTORS_HISTORY_SPACING_DEFAULT,
            description = "The history keeps a version every this much of a node's local time (and every new "
                    + "reference, step or superseding version), as the application's factors.history.spacing; "
                    + "0: every factor drained (default: ${DEFAULT-VALUE}).")
    Duration historySpacing;

    @Option(names = "--history-tolerance", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = TracesyncConfig.FACTORS_HISTORY_TOLERANCE_DEFAULT,
            description = "The history also keeps a version where the last kept one's map, carried to its anchor, "
                    + "answers more than this away from it, as the application's factors.history.tolerance; 0: the "
                    + "spacing alone (default: ${DEFAULT-VALUE}).")
    Duration historyTolerance;

    @Option(names = "--factors", paramLabel = "FILE",
            description = "Also write the factors over time (true_ns,node,reference,slope,offset,up_ns,down_ns).")
    Path factorsFile;

    @Option(names = "--report", paramLabel = "DIR",
            description = "Also write DIR/report.html: one self-contained page (opens offline) with the run's "
                    + "parameters, the summary, the spanning forest and every node's accuracy over time.")
    Path reportDir;

    @Override
    public Integer call() throws IOException {
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
        Evaluation.Result result;
        try {
            result = Evaluation.run(new Evaluation.Options(run, interval, horizon, model.curvature,
                    model.shortestWindow, model.stepPpb, model.stepInterval, model.excursion, model.maxDriftPpm, weight,
                    network,
                    referenceRule, weighting, minChange, factorsMinChange, ahead, knownMinDelays, compareHorizons,
                    ages, historySpacing, historyTolerance, factorsFile, reportDir));
        } catch (PairsCsv.InputException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(result.summary());
        if (result.report() != null) {
            out.println("report: " + result.report());
        }
        out.flush();
        return 0;
    }
}
