package io.tracesync.app;

import io.tracesync.console.UserErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line of the production image: the application ({@code run}), a replay of archived topics
 * ({@code replay}) and the corrected-spans application ({@code correct-spans}). The repository's {@code tracesync}
 * command (module tools) offers the same three beside the demo, the simulator, the evaluation and the importers.
 */
@Command(name = "tracesync", mixinStandardHelpOptions = true, versionProvider = ApplicationCommand.Version.class,
        description = "Online clock synchronization of distributed traces, with guaranteed error bounds.",
        subcommands = {RunCommand.class, ReplayCommand.class, CorrectSpansCommand.class,
                CommandLine.HelpCommand.class})
public final class ApplicationCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(UserErrors.commandLine(new ApplicationCommand(), args).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The version of the jar's manifest, or "(development build)" when run from classes. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ApplicationCommand.class.getPackage().getImplementationVersion();
            return new String[] {"tracesync " + (v == null ? "(development build)" : v)};
        }
    }
}
