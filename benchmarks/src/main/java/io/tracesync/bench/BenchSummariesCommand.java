package io.tracesync.bench;

import io.tracesync.console.DurationConverter;
import io.tracesync.console.PluggedCommand;
import io.tracesync.streams.Settings;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-summaries}: the link summaries the network task receives per link, by link age. */
@Command(name = "bench-summaries",
        header = "Measure the rate of link summaries by link age and message rate.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulates request/response links (the simulator's default clocks and delays) at each "
                + "--rates value and feeds their true pairs, batched per link and commit interval as the pairs hop "
                + "batches them, through the application's link step (LinkProcessor, its default links.min.change "
                + "of 10%% and link.horizon of 30m unless --set).",
                "Prints, per rate and age bucket (time since the link's first pair), the pairs, the batches and "
                        + "the summaries per link per second (at most one summary a batch), the fraction of pairs "
                        + "that emitted one, and the summaries per link per e-fold of age (c if the rate is c / "
                        + "age)."})
public final class BenchSummariesCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--links", paramLabel = "N", defaultValue = "16",
            description = "Simulated links, on as many nodes (default: ${DEFAULT-VALUE}).")
    int links;

    @Option(names = "--rates", split = ",", paramLabel = "PAIRS/S", defaultValue = "5,50",
            description = "Messages (pairs) per second per link, comma-separated; 5 and 50 are 100 and 1,000 events "
                    + "per node per second at a mean degree of 20 (default: ${DEFAULT-VALUE}).")
    List<Double> rates;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "6h", converter = DurationConverter.class,
            description = "Simulated (true) time per rate (default: ${DEFAULT-VALUE}, about 10 s of CPU at the "
                    + "default rates).")
    Duration duration;

    @Option(names = "--wander", description = "Let the clock frequencies wander (the simulator's --wander).")
    boolean wander;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "An application setting, e.g. links.min.change=0.05, link.horizon=none or "
                    + "commit.interval.ms=1000 (repeatable).")
    Map<String, String> overrides = new HashMap<>();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Simulation seed (default: 1).")
    long seed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (links < 3 || duration.isZero() || rates.stream().anyMatch(r -> !(r > 0))) {
            spec.commandLine().getErr().println("error: need --links >= 3, a positive --duration and --rates > 0");
            return 2;
        }
        Map<String, String> values = new HashMap<>(overrides);
        values.put("schema.registry.url", "mock://" + UUID.randomUUID());
        Settings settings = Settings.of(values);
        for (double rate : rates) {
            SummaryRate run = new SummaryRate(new SummaryRate.Config(links, rate, duration.toNanos(), wander, seed),
                    settings);
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            SummaryRate.Result r = run.run();
            cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
            out.printf(Locale.ROOT, "%n%s pairs/s per link, %d links, %s%s; commit interval %s, links.min.change %s, "
                    + "link.horizon %s; seed %d; %.1f s of CPU%n", rate, r.links(), age(duration.toNanos()),
                    wander ? ", wandering clocks" : "", Durations.format(run.commitIntervalNs()),
                    settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG),
                    settings.get(TracesyncConfig.LINK_HORIZON_CONFIG), seed, cpu / 1e9);
            out.printf(Locale.ROOT, "%,d pairs, %,d summaries (LinkProcessor counted %,d), %.3f%% of the pairs; "
                    + "%d of %d links emitted at their first batch%n", r.pairs(), r.summaries(), r.counted(),
                    100.0 * r.summaries() / r.pairs(), r.firstEmitted(), r.links());
            out.printf("%-13s %9s %10s %12s %10s %10s%n", "age", "pairs/s", "batches/s", "summaries/s", "of pairs",
                    "per e-fold");
            for (SummaryRate.Bucket b : r.buckets()) {
                double c = b.perEFold();
                out.printf(Locale.ROOT, "%-13s %9.2f %10.3f %12.5f %9.3f%% %10s%n",
                        age(b.fromNs()) + "–" + age(b.toNs()), b.pairsPerLinkS(), b.batchesPerLinkS(),
                        b.summariesPerLinkS(), 100 * b.emittingFraction(),
                        Double.isNaN(c) ? "-" : String.format(Locale.ROOT, "%.1f", c));
            }
            out.flush();
        }
        return 0;
    }

    /** An age in s, min or h, one decimal at most: 10s, 30m, 1.5h. */
    private static String age(long ns) {
        double s = ns / 1e9;
        String[] units = {"s", "m", "h"};
        double[] scale = {1, 60, 3600};
        int u = s < 60 ? 0 : s < 3600 ? 1 : 2;
        return String.format(Locale.ROOT, "%.1f", s / scale[u]).replace(".0", "") + units[u];
    }
}
