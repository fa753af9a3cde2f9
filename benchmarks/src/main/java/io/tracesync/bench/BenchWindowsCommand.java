package io.tracesync.bench;

import io.tracesync.console.DurationConverter;
import io.tracesync.console.PluggedCommand;
import io.tracesync.core.link.WindowRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync bench-windows}: ways to choose a link's window, per link against a simulation's truth. */
@Command(name = "bench-windows",
        header = "Compare ways to choose a link's window on a simulated run.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replays every link of a simulation (tracesync simulate) through corridors over windows of "
                + "its most recent pairs, their points relaxed for clocks whose relative frequency changes by at most "
                + "the given rates (docs/LINK-CORE.md, Clocks that bend), and prints per rate and rule the true "
                + "error of the estimate (the middle of the interval), the width of the interval and the share of "
                + "samples inside it. Rules: each window alone, the narrowest interval, the intersection of all, and "
                + "that intersection with the estimate of the longest window whose linear estimate and every shorter "
                + "one's lie inside it (consistent), or that also differ from the next shorter one's by at most four "
                + "times the two shortest windows' difference (agreeing)."})
public final class BenchWindowsCommand implements Callable<Integer>, PluggedCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--run", paramLabel = "DIR", required = true,
            description = "A directory written by tracesync simulate.")
    Path run;

    @Option(names = "--windows", split = ",", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "15s,30s,1m,2m,4m,8m,30m",
            description = "Windows of the most recent pairs, shortest first (default: ${DEFAULT-VALUE}).")
    List<Duration> windows;

    @Option(names = "--rates", split = ",", paramLabel = "PPB_PER_S", defaultValue = "0,5,10,20,40",
            description = "Largest changes of the relative frequency the bounds allow for, in ppb per second "
                    + "(default: ${DEFAULT-VALUE}).")
    List<Double> rates;

    @Option(names = "--known-min-delays", description = "Use each link's true minimum delays, lowered by 0.1 %%.")
    boolean knownMinDelays;

    @Option(names = "--every", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often, in a's clock, each link is measured (default: ${DEFAULT-VALUE}).")
    Duration every;

    @Override
    public Integer call() throws IOException {
        if (!Files.isRegularFile(run.resolve("truth-pairs.csv"))) {
            spec.commandLine().getErr().println("error: " + run + " holds no truth-pairs.csv: not a simulated run");
            return 2;
        }
        boolean ascending = true;
        for (int i = 1; i < windows.size(); i++) {
            ascending &= windows.get(i).compareTo(windows.get(i - 1)) > 0;
        }
        if (windows.isEmpty() || windows.get(0).isZero() || !ascending || every.isZero()
                || rates.stream().anyMatch(r -> !(r >= 0))) {
            spec.commandLine().getErr().println("error: need --windows above zero in increasing order, --every "
                    + "above zero and --rates of 0 or more");
            return 2;
        }
        List<WindowRules.Row> rows = new WindowRules(new WindowRules.Config(run, windows, rates, knownMinDelays,
                every)).run();
        WindowRules.print(rows, spec.commandLine().getOut());
        return 0;
    }
}
