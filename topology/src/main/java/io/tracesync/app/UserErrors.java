package io.tracesync.app;

import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;

/**
 * How a command ends on a user's mistake in the configuration: one {@code error: …} line and exit code 2, as on a
 * wrong option, instead of a stack trace.
 */
public final class UserErrors implements CommandLine.IExecutionExceptionHandler {

    /** The exit code of a usage or configuration error (picocli's for a wrong option). */
    public static final int EXIT = 2;

    /** A command line for {@code command} that ends this way. */
    public static CommandLine commandLine(Object command) {
        return new CommandLine(command).setExecutionExceptionHandler(new UserErrors());
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed)
            throws Exception {
        if (e instanceof ConfigException) {
            cmd.getErr().println("error: " + e.getMessage());
            return EXIT;
        }
        throw e;
    }
}
