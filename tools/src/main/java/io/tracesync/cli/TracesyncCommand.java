package io.tracesync.cli;

import io.tracesync.app.ApplicationCommand;
import io.tracesync.app.CorrectSpansCommand;
import io.tracesync.app.ReplayCommand;
import io.tracesync.app.RunCommand;
import io.tracesync.console.PluggedCommand;
import io.tracesync.console.UserErrors;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tracesync} command line of the repository: the production commands and the tools around them, then
 * the commands found on the class path ({@link PluggedCommand}: the benchmarks', packaged beside it), then
 * {@code fault-run} and {@code help}.
 */
@Command(name = "tracesync", mixinStandardHelpOptions = true, versionProvider = ApplicationCommand.Version.class,
        description = "Online clock synchronization of distributed traces, with guaranteed error bounds.",
        subcommands = {DemoCommand.class, LocalServicesCommand.class, RunCommand.class, ImportCommand.class,
                ReplayCommand.class, CorrectSpansCommand.class, SyncPairsCommand.class, SimulateCommand.class,
                EvaluateCommand.class})
public final class TracesyncCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }

    /** The whole command line, as {@link UserErrors#commandLine} sets one up for {@code args}. */
    public static CommandLine commandLine(String... args) {
        CommandLine cmd = new CommandLine(new TracesyncCommand());
        for (PluggedCommand plugged : ServiceLoader.load(PluggedCommand.class)) {
            cmd.addSubcommand(plugged);
        }
        cmd.addSubcommand(new FaultRunCommand());
        cmd.addSubcommand(new CommandLine.HelpCommand());
        return UserErrors.commandLine(cmd, args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
