package io.tracesync.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tracesync} command line. */
@Command(name = "tracesync", mixinStandardHelpOptions = true, versionProvider = TracesyncCommand.Version.class,
        description = "Online clock synchronization of distributed traces, with guaranteed error bounds.",
        subcommands = {DemoCommand.class, RunCommand.class, ImportCommand.class, ReplayCommand.class,
                CorrectSpansCommand.class,
                SyncPairsCommand.class, SimulateCommand.class,
                EvaluateCommand.class, BenchNetworkCommand.class, BenchIntervalsCommand.class, BenchStreamCommand.class,
                CommandLine.HelpCommand.class})
public final class TracesyncCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TracesyncCommand()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = TracesyncCommand.class.getPackage().getImplementationVersion();
            return new String[] {"tracesync " + (v == null ? "(development build)" : v)};
        }
    }
}
