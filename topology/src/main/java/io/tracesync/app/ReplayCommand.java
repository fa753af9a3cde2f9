package io.tracesync.app;

import io.tracesync.console.SettingsOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync replay}: the options of a {@link Replay}. */
@Command(name = "replay",
        header = "Reprocess the trace topics from their beginning.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reprocesses the trace topics from the beginning with the streaming application "
                + "(auto.offset.reset=earliest): by default under a new application id <application.id>-replay-"
                + "<UTC time>, printed; or under --application-id ID, which must have no committed offsets; or, with "
                + "--reset, under the configured application.id after resetting it: its consumer group must have no "
                + "member (a stopped instance is one until its session expires: waited out, up to session.timeout.ms "
                + "and 5 s); the committed offsets of the trace topics go to the earliest ones, the group's other "
                + "offsets and the application's internal topics (changelogs, repartition topics) are deleted, and "
                + "so is its local state. Output topics are the configured ones (-D factors.topic=... to keep a "
                + "replay's apart).",
                "The bar shows the records of the trace topics processed (the group's committed offsets against "
                + "the latest ones). Runs until interrupted, or with --until-caught-up until nothing is left to "
                + "process and the factors have settled.",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @ArgGroup(exclusive = true)
    Target target;

    @Option(names = "--until-caught-up",
            description = "Stop when every trace topic record is processed and the factors have settled; print the "
                    + "factors count.")
    boolean untilCaughtUp;

    /** A new application id, named or not, or the configured one reset. */
    static final class Target {
        @Option(names = "--application-id", paramLabel = "ID", description = "The new application id to replay "
                + "under (default: <application.id>-replay-<UTC time>).")
        String applicationId;

        @Option(names = "--reset", description = "Replay under the configured application.id, reset first.")
        boolean reset;
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        return new Replay(options.load(), target != null && target.reset,
                target == null ? null : target.applicationId, untilCaughtUp, cmd.getOut(), cmd.getErr()).run();
    }
}
