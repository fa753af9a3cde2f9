package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.offline.PairsSync;
import io.tracesync.streams.config.OptionDefaults;
import java.io.IOException;
import java.io.PrintWriter;
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
 * {@code tracesync sync-pairs}: the options of a {@link PairsSync}, the offline synchronization of a matched-pairs
 * file and the reference answer the stream must equal.
 */
@Command(name = "sync-pairs",
        header = "Synchronize a matched-pairs file offline (the reference answer).",
        mixinStandardHelpOptions = true, sortOptions = false, defaultValueProvider = OptionDefaults.class,
        description = {"Synchronizes the clocks of the nodes in a matched-pairs CSV file.",
                "Each link gets its convex hull corridor (L_min, L_max), Duda's estimate and Poirier's guaranteed "
                        + "bounds. The ACCURATE links form a minimum spanning forest; each of its components has "
                        + "a reference clock (the --reference node, else its node with the most links), and each node gets the "
                        + "factors t_ref = slope * t + offset to its component's reference, with a guaranteed bound "
                        + "at a stated local time that grows at a stated rate away from it: by default from every "
                        + "link of the component, else along the tree path (--network tree)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:synchronized", "2:bad input or options (the message names the line)"},
        footerHeading = "%nOutput with --json:%n",
        footer = {"{\"links\": [{\"a\", \"b\", \"pairs\", \"quality\", \"hull_points\", \"slope_min\", "
                + "\"intercept_min\", \"slope_max\", \"intercept_max\", \"slope\", \"intercept\", "
                + "\"slope_accuracy\", \"bounds\": [{\"t\", \"up_ns\", \"down_ns\"}], \"stale_pairs\", "
                + "\"failures\"}], \"reference\", \"components\": [{\"reference\", \"nodes\"}], "
                + "\"nodes\": [{\"node\", \"component\", \"method\", \"evaluated_at_ns\", \"anchor_ns\", "
                + "\"slope\", \"offset\", \"bound_ns\", \"up_ns\", \"down_ns\", \"growth_up_ns_per_s\", "
                + "\"growth_down_ns_per_s\", \"tree_up_ns\", \"tree_down_ns\"}], \"excluded_links\": "
                + "[{\"a\", \"b\"}], \"tree\": [{\"a\", \"b\", \"weight\"}]}",
                "Link lines are y = slope*x + intercept with x = a's clock, y = b's clock (a < b by id). Decimals "
                        + "are strings of 40 significant digits computed without doubles, 64-bit integers "
                        + "(times, counts) strings of their digits, exact where JSON numbers are read as doubles; "
                        + "bounds are rounded "
                        + "outward to the picosecond and null where the corridor is still open. A node's bound "
                        + "holds at anchor_ns (its time when its reference reads evaluated_at_ns: the latest --at, "
                        + "or the component's latest time) and grows away from it by growth_up/down_ns_per_s (up/"
                        + "down after the anchor, the other way round before it); tree_up/down_ns are the tree "
                        + "path's interval, null where it crosses a link left out. A link contradicting the other "
                        + "paths (a negative cycle) is left out and listed in excluded_links. A component is named "
                        + "by its reference node; the top-level reference is that of the largest component."})
final class SyncPairsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--pairs", required = true, paramLabel = "FILE",
            description = "CSV of sender,send_ns,receiver,recv_ns in any order: each link takes its pairs in "
                    + "its first node's clock order (header optional, extra columns ignored); '-' reads standard "
                    + "input.")
    String pairs;

    @Option(names = "--reference", paramLabel = "NODE",
            description = "Reference clock of its component (default: by --reference-rule).")
    String reference;

    @Option(names = "--reference-rule", paramLabel = "RULE", descriptionKey = "network.reference.rule",
            converter = Converters.ReferenceRuleConverter.class,
            description = "Each component's reference: most-links (the node with the most links in the spanning "
                    + "forest's graph, of those the smallest id) or centroid (of the spanning tree; of two, the "
                    + "smaller id) (default: ${DEFAULT-VALUE}).")
    ReferenceRule referenceRule;

    @Option(names = "--weight", paramLabel = "WEIGHT", descriptionKey = "network.weight",
            converter = Converters.WeightConverter.class,
            description = "Link weight of the minimum spanning forest, smaller is better: slope-accuracy "
                    + "(alpha_max - alpha_min) or bound-width (the wider of Poirier's bounds, in ps) "
                    + "(default: ${DEFAULT-VALUE}).")
    LinkWeight weight;

    @Option(names = "--approximate",
            description = "Also join components through APPROXIMATE links (weight +infinity: only where no "
                    + "ACCURATE path exists); the bounds across them are not finite.")
    boolean approximate;

    @Option(names = "--at", paramLabel = "T", split = ",",
            description = "Times (ns) at which to report the bounds: each link's on its first node's clock, and "
                    + "the nodes' at the latest of them on their reference's clock; repeatable. Each answer uses the "
                    + "pairs around its time: the link's pairs up to it, and those after it up to the link's "
                    + "longest window where they bound it tighter. Default: each link's latest time, and each "
                    + "component's latest.")
    List<Long> at = new ArrayList<>();

    @Option(names = "--live",
            description = "With --at: answer as the stream did at each time, from the pairs up to it alone.")
    boolean live;

    @Option(names = "--network", paramLabel = "METHOD", descriptionKey = "network.method",
            converter = Converters.MethodConverter.class,
            description = "How the nodes' factors are obtained: all-links (the tightest interval every link "
                    + "implies, a least-squares estimate inside it) or tree (composed along the spanning tree) "
                    + "(default: ${DEFAULT-VALUE}).")
    NetworkMethod network;

    @Option(names = "--json", description = "Print the JSON report instead of a table.")
    boolean json;

    @Option(names = "--horizon", paramLabel = "DURATION", descriptionKey = "link.horizon",
            converter = DurationConverter.class,
            description = "Sliding horizon per link, in link time: e.g. 30m, 2h, or none (default: ${DEFAULT-VALUE}).")
    Duration horizon;

    @Mixin
    ClockModelOptions model;

    @Option(names = "--min-delay", paramLabel = "NS", defaultValue = "0",
            description = "Known minimum one-way delay of every message, in ns (Ashton's correction; default 0).")
    long minDelay;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (minDelay < 0) {
            err.println("--min-delay cannot be negative");
            return 2;
        }
        if (live && at.isEmpty()) {
            err.println("--live needs --at: it answers for past times as the stream did then");
            return 2;
        }
        NetworkOptions o = NetworkOptions.DEFAULT.withWeight(weight).withMethod(network)
                .withReferenceRule(referenceRule);
        if (approximate) {
            o = o.withApproximate(Double.POSITIVE_INFINITY);
        }
        LinkOptions links;
        try {
            links = model.linkOptions(horizon, minDelay, minDelay);
        } catch (IllegalArgumentException e) {
            err.println("error: --curvature " + model.curvature + ": " + e.getMessage());
            return 2;
        }
        PairsSync.Options options = new PairsSync.Options(pairs, links, o.withPinnedReference(reference), at, live,
                json);
        return new PairsSync(options, System.in, spec.commandLine().getOut(), err).run();
    }
}
