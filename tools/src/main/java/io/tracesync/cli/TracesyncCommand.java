package io.tracesync.cli;

import io.tracesync.app.ApplicationCommand;
import io.tracesync.app.CorrectSpansCommand;
import io.tracesync.app.ReplayCommand;
import io.tracesync.app.RunCommand;
import io.tracesync.bench.BenchFailoverCommand;
import io.tracesync.bench.BenchIntervalsCommand;
import io.tracesync.bench.BenchRegionsCommand;
import io.tracesync.bench.BenchNetworkCommand;
import io.tracesync.bench.BenchNetworkStageCommand;
import io.tracesync.bench.BenchStreamCommand;
import io.tracesync.bench.BenchHistoryCommand;
import io.tracesync.bench.BenchSummariesCommand;
import io.tracesync.bench.BenchWindowsCommand;
import io.tracesync.console.UserErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tracesync} command line of the repository: the production commands and the tools around them. */
@Command(name = "tracesync", mixinStandardHelpOptions = true, versionProvider = ApplicationCommand.Version.class,
        description = "Online clock synchronization of distributed traces, with guaranteed error bounds.",
        subcommands = {DemoCommand.class, LocalServicesCommand.class, RunCommand.class, ImportCommand.class,
                ReplayCommand.class, CorrectSpansCommand.class, SyncPairsCommand.class, SimulateCommand.class,
                EvaluateCommand.class, BenchNetworkCommand.class, BenchIntervalsCommand.class, BenchRegionsCommand.class, BenchNetworkStageCommand.class, BenchStreamCommand.class,
                BenchFailoverCommand.class, BenchHistoryCommand.class, BenchSummariesCommand.class, BenchWindowsCommand.class, FaultRunCommand.class,
                CommandLine.HelpCommand.class})
public final class TracesyncCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(UserErrors.commandLine(new TracesyncCommand(), args).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
