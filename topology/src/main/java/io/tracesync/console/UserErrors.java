package io.tracesync.console;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;

/**
 * How a command ends on an error: one {@code error: …} line, no stack trace (unless {@code --verbose}). A mistake the
 * user can fix — a configuration value, an argument, an input file, a service that does not answer ({@link
 * UserError}) — exits with 2, as a wrong option does (its line and where the help is, not the whole help); a failure
 * of the surroundings (a file that cannot be read or written, the Kafka clients giving up) with 1; anything else is a
 * bug, and says so, with its stack trace, exit 1: an unexpected {@link IllegalArgumentException} or
 * {@link IllegalStateException} is a programming error, not the user's.
 * {@link #commandLine} also keeps the Kafka clients' warnings (retries, fencing, temporary directories) off the
 * console unless {@code --verbose} asks for them.
 */
public final class UserErrors implements CommandLine.IExecutionExceptionHandler {

    /** The exit code of a usage or configuration error (picocli's for a wrong option). */
    public static final int EXIT = 2;
    /** The option, on every command, that shows stack traces and the Kafka clients' warnings. */
    public static final String VERBOSE = "--verbose";

    private static final String KAFKA_LOG_LEVEL = "org.slf4j.simpleLogger.log.org.apache.kafka";

    /** A command line for {@code command} that ends this way; {@code args} decide how much Kafka logs. */
    public static CommandLine commandLine(Object command, String... args) {
        return commandLine(new CommandLine(command), args);
    }

    /**
     * {@code cmd}, with every subcommand it has now (picocli's settings reach no subcommand added later), made to end
     * this way; {@code args} decide how much Kafka logs.
     */
    public static CommandLine commandLine(CommandLine cmd, String... args) {
        if (System.getProperty(KAFKA_LOG_LEVEL) == null) {
            System.setProperty(KAFKA_LOG_LEVEL, Arrays.asList(args).contains(VERBOSE) ? "warn" : "error");
        }
        cmd.setExecutionExceptionHandler(new UserErrors())
                .setParameterExceptionHandler(UserErrors::handleParameterException)
                .setHelpFactory(UnbrokenNamesHelp::new);
        CommandLine.Model.OptionSpec verbose = CommandLine.Model.OptionSpec.builder(VERBOSE)
                .description("Show stack traces and the Kafka clients' warnings.")
                .scopeType(CommandLine.ScopeType.INHERIT).build();
        cmd.getCommandSpec().addOption(verbose);
        return cmd;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        boolean user = e instanceof ConfigException || e instanceof UserError;
        boolean bug = !user && isBug(e);
        if (bug || verbose(parsed)) {
            e.printStackTrace(cmd.getErr());
        }
        cmd.getErr().println("error: " + (bug ? "a bug in tracesync (" + e.getClass().getSimpleName() + "): "
                + message(e) + " — the stack trace above says where; please report it" : message(e)));
        cmd.getErr().flush();
        return user ? EXIT : 1;
    }

    /**
     * Whether {@code e} is a programming error: an unchecked exception other than the Kafka clients' (a broker that
     * does not answer) and an I/O failure's.
     */
    static boolean isBug(Throwable e) {
        return e instanceof RuntimeException && !(e instanceof KafkaException || e instanceof UncheckedIOException);
    }

    /**
     * A wrong option or argument: its {@code error:} line, picocli's suggestions for a mistyped option, and where the
     * help is — not the whole help, which would bury the one line that matters.
     */
    private static int handleParameterException(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("error: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("(" + cmd.getCommandSpec().qualifiedName() + " --help lists the options)");
        err.flush();
        return EXIT;
    }

    private static boolean verbose(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(VERBOSE)) {
                return true;
            }
        }
        return false;
    }

    /** The exception's message; for one without, its type and its cause's. */
    private static String message(Throwable e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + (e.getCause() == null ? "" : ": " + message(e.getCause()));
    }
}
