package io.tracesync.bench;

import io.tracesync.console.DurationConverter;
import io.tracesync.console.PluggedCommand;
import io.tracesync.streams.Settings;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-network-stage}: the network task fed with the link step's summaries, cold or steady. */
@Command(name = "bench-network-stage",
        header = "Measure the network task on the summary streams of a large network's links.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Records the summaries the application's link step emits for --templates simulated links "
                + "(as bench-summaries), then feeds the application's network step (NetworkProcessor, in-memory "
                + "stores, no broker) a random network of linear clocks whose every link replays one template's "
                + "summaries, moved onto it (as far off its true relation as the template's were off its own) and "
                + "shifted by up to --phase. From --from 0 that is a cold start; from 30m on, the steady state (the "
                + "network first loaded with every link's latest summary, untimed).",
                "The task runs on a virtual clock that moves on by the thread time each poll, commit and emission "
                        + "took, so it falls behind when it cannot keep up. Prints per --report of link time the "
                        + "summaries per second, the task's thread time per second of link time (summaries, "
                        + "emissions, both), its backlog and the nodes published and bounded; then the share of the "
                        + "thread and, from a cold start, when every node had a factor and when the task caught up.",
                "With --regions the network is cut into regions and runs as network.regions runs it: the regions' "
                        + "tasks (--tasks) and the backbone's, each on a clock of its own (RegionProcessor, "
                        + "BackboneProcessor); the rows then show the busiest task, and the end each task's share.",
                "Every store is held in memory: at 250,000 nodes about 7.7 GB stay live; give it a 12 GB heap "
                        + "(TRACESYNC_JAVA_OPTS=-Xmx12g)."})
public final class BenchNetworkStageCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "10000",
            description = "Nodes of the network (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--links-per-node", paramLabel = "K", defaultValue = "10",
            description = "Links per node, each counted once (default: ${DEFAULT-VALUE}: 20 per node counting both "
                    + "ends).")
    int linksPerNode;

    @Option(names = "--rate", paramLabel = "PAIRS/S", defaultValue = "5",
            description = "Messages (pairs) per second per link (default: ${DEFAULT-VALUE}: 100 events per node "
                    + "per second at 20 links per node).")
    double rate;

    @Option(names = "--templates", paramLabel = "N", defaultValue = "500",
            description = "Simulated template links (default: ${DEFAULT-VALUE}).")
    int templates;

    @Option(names = "--from", paramLabel = "AGE", defaultValue = "0s", converter = DurationConverter.class,
            description = "The links' age when the measured time starts: 0 for a cold start, 30m or more for the "
                    + "steady state (default: ${DEFAULT-VALUE}).")
    Duration from;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "3m", converter = DurationConverter.class,
            description = "Link time measured (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--phase", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "The links' starts spread over this much time (default: 1s from a cold start, else 1m).")
    Duration phase;

    @Option(names = "--report", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "Link time per printed row (default: ${DEFAULT-VALUE}).")
    Duration report;

    @Option(names = "--wander", description = "Let the template clocks' frequencies wander (the simulator's --wander)"
            + "; without it, run the links with link.curvature=0 for linear clocks unless --set otherwise.")
    boolean wander;

    @Option(names = "--regions", paramLabel = "R", defaultValue = "0",
            description = "Cut the network into R regions of consecutive nodes, each with a tree of its own, and run "
                    + "the network work as network.regions does: the regions' tasks and the backbone's, each on a "
                    + "clock of its own (default: ${DEFAULT-VALUE}: the one network task).")
    int regions;

    @Option(names = "--crossing", paramLabel = "FRACTION", defaultValue = "0.01",
            description = "With --regions: the fraction of the links beyond the regions' trees between two regions "
                    + "(default: ${DEFAULT-VALUE}).")
    double crossing;

    @Option(names = "--tasks", paramLabel = "N", defaultValue = "4",
            description = "With --regions: the regions' tasks, network.regions.partitions (default: "
                    + "${DEFAULT-VALUE}).")
    int tasks;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "An application setting, e.g. links.min.change=1 or factors.emit.interval=2s "
                    + "(repeatable).")
    Map<String, String> overrides = new HashMap<>();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Random seed (default: 1).")
    long seed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (nodes < 2 || linksPerNode < 1 || templates < 3 || !(rate > 0) || duration.isZero()
                || (long) nodes * linksPerNode > (long) nodes * (nodes - 1) / 2 || regions < 0 || regions > 1000
                || regions > nodes || !(crossing >= 0 && crossing <= 1) || tasks < 1) {
            spec.commandLine().getErr().println("error: need --nodes >= 2, 1 <= --links-per-node < nodes / 2, "
                    + "--templates >= 3, --rate > 0, a positive --duration, 0 <= --regions <= min(1000, nodes), "
                    + "0 <= --crossing <= 1 and --tasks >= 1");
            return 2;
        }
        Map<String, String> values = new HashMap<>();
        if (!wander) {
            values.put(TracesyncConfig.LINK_CURVATURE_CONFIG, "0");
        }
        if (regions > 0) {
            values.put(TracesyncConfig.NETWORK_REGIONS_CONFIG, RandomNetwork.REGION_PATTERN);
            values.put(TracesyncConfig.NETWORK_REGIONS_PARTITIONS_CONFIG, Integer.toString(tasks));
        }
        values.putAll(overrides);
        values.put("schema.registry.url", "mock://" + UUID.randomUUID());
        Settings settings = Settings.of(values);
        Duration spread = phase != null ? phase : from.isZero() ? Duration.ofSeconds(1) : Duration.ofMinutes(1);
        out.printf(Locale.ROOT, "%,d nodes x %d links, %s pairs/s per link, %s clocks, %s for %s; "
                + "links.min.change %s, factors.emit.interval %s, network.method %s; seed %d%n", nodes, linksPerNode,
                rate, wander ? "wandering" : "linear",
                from.isZero() ? "a cold start" : "from the links' age " + Durations.format(from.toNanos()),
                Durations.format(duration.toNanos()), settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG),
                settings.get(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG),
                settings.get(TracesyncConfig.NETWORK_METHOD_CONFIG), seed);
        NetworkStageRun.Result r = new NetworkStageRun(new NetworkStageRun.Config(nodes, linksPerNode, rate,
                templates, from.toNanos(), duration.toNanos(), spread.toNanos(), report.toNanos(), wander, regions,
                crossing, seed),
                settings).run(out);
        out.printf(Locale.ROOT, "%,d summaries in %.0f s of link time (%.4f per link per s); the task's thread: "
                + "%.3f s per s (summaries %.3f, emissions %.3f: %d of %.1f ms), %.2f µs of every task's per summary; "
                + "most behind %.1f s%n",
                r.summaries(), r.linkS(), r.summaries() / r.linkS() / ((double) nodes * linksPerNode), r.share(),
                r.processS() / r.linkS(), r.emitS() / r.linkS(), r.emissions(), r.emitS() * 1e3 / r.emissions(),
                r.summaries() == 0 ? 0 : r.arrivalsS() / r.summaries() * 1e6, r.maxBacklogS());
        if (regions > 0) {
            StringBuilder shares = new StringBuilder();
            for (int i = 0; i < r.taskShares().length; i++) {
                shares.append(String.format(Locale.ROOT, i == r.taskShares().length - 1 ? "; backbone %.3f"
                        : i == 0 ? "%.3f" : " %.3f", r.taskShares()[i]));
            }
            out.printf(Locale.ROOT, "%d regions, %.3f of the links beyond their trees between two; each task's "
                    + "thread, s per s: regions' tasks %s%n", regions, crossing, shares);
        }
        out.printf(Locale.ROOT, "taken in at emissions %,d (the last of each link's), applied %,d (%.3f per link per s: "
                + "where they could move an answer)%n", r.updates(), r.applied(),
                r.applied() / r.linkS() / ((double) nodes * linksPerNode));
        out.printf(Locale.ROOT, "every node published at %s s, bounded at %s s; caught up at %.1f s of link time%n",
                seconds(r.allPublishedS()), seconds(r.allBoundedS()), r.caughtUpS());
        out.printf(Locale.ROOT, "%,d factor records, %d tree snapshots, %d new references; factor lag (the oldest "
                + "summary an emission reflects, arrival to emission) %.1f s on average, at most %.1f s%n",
                r.factorRecords(), r.treeRecords(), r.referenceChanges(), r.meanLagS(), r.maxLagS());
        out.printf(Locale.ROOT, "bounded factors holding the reference's true reading at their anchor and 10 s before: %,d of %,d; "
                + "links left out as contradicting the others at the end: %d%n", r.factorsHolding(),
                r.factorsChecked(), r.inconsistentLinks());
        return 0;
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.1f", s);
    }
}
