package io.tracesync.cli;

import io.tracesync.console.ProgressBar;
import io.tracesync.sim.OutputDirectory;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationStats;
import io.tracesync.sim.Simulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync simulate}: the ground-truth cluster simulator; formats in docs/SIMULATOR.md. */
@Command(name = "simulate",
        header = "Simulate a traced cluster whose true clocks are known.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Nodes with drifting (optionally wandering) clocks exchange TCP segments over links with "
                + "minimum and heavy-tailed delays, loss and retransmissions. Writes into --out: events/NODE.csv "
                + "(each node's trace), pairs.csv (matched pairs, the input of sync-pairs), truth-pairs.csv, "
                + "truth-clocks.csv and truth.json (the ground truth). The same options and seed give the same "
                + "files."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:simulated", "1:could not write the output", "2:bad options"})
final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Output directory; created if missing, must be empty.")
    Path out;

    @Mixin
    SimulationOptions simulation;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Scenario scenario;
        try {
            scenario = Scenario.build(simulation.config());
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        long begin = System.nanoTime();
        SimulationStats stats;
        Simulator simulator = new Simulator(scenario);
        OutputDirectory files;
        try {
            files = new OutputDirectory(out, scenario);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("error: cannot write " + out + ": " + e.getMessage());
            return 1;
        }
        try (files; ProgressBar.Meter bar = ProgressBar.meter(simulator.progressTotal(), err, "simulating")) {
            stats = simulator.run(files, bar::update);
            files.finish(stats);
        } catch (IOException | UncheckedIOException e) {
            err.println("error: cannot write " + out + ": " + e.getMessage());
            return 1;
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "simulated %d nodes, %d links, %s: %,d events (%,d SEND incl. %,d retransmissions, "
                        + "%,d RECV), %,d pairs, %,d transmissions lost, %,d segments given up, in %.1f s -> %s%n",
                scenario.nodeCount(), scenario.linkCount(),
                simulation.duration.toString().substring(2).toLowerCase(Locale.ROOT),
                stats.events(), stats.sends, stats.retransmissions, stats.recvs, stats.recvs, stats.dropped,
                stats.abandoned, seconds, out);
        o.flush();
        return 0;
    }
}
