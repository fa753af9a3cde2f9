package io.tracesync.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * How a command ends on each kind of failure: the user's mistakes with exit 2 and one line, the surroundings'
 * failures with 1 and one line, a programming error with 1, called a bug, with its stack trace.
 */
class UserErrorsTest {

    /** A command that throws what it is given. */
    @Command(name = "fails")
    static final class Fails implements Callable<Integer> {

        private final Exception failure;

        Fails(Exception failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            throw failure;
        }
    }

    private record Ended(int exit, String err) {
    }

    private static Ended run(Exception failure, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cmd = UserErrors.commandLine(new Fails(failure), args).setErr(new PrintWriter(err, true));
        return new Ended(cmd.execute(args), err.toString());
    }

    @Test
    void theUsersMistakesExitWith2InOneLine() {
        for (Exception e : new Exception[] {new UserError("no broker answers at localhost:1"),
                new ConfigException("link.horizon", "-1", "not a duration")}) {
            Ended r = run(e);
            assertEquals(2, r.exit(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("error: "), r.err());
        }
    }

    @Test
    void theSurroundingsFailuresExitWith1InOneLine() {
        for (Exception e : new Exception[] {new IOException("disk full"),
                new UncheckedIOException(new IOException("cannot write out.csv")), new KafkaException("timed out")}) {
            Ended r = run(e);
            assertEquals(1, r.exit(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertFalse(r.err().contains("bug"), r.err());
        }
    }

    @Test
    void aProgrammingErrorIsCalledABugWithItsStackTrace() {
        for (Exception e : new Exception[] {new IllegalArgumentException("weight must be positive: -1"),
                new IllegalStateException("no tree"), new NullPointerException()}) {
            Ended r = run(e);
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.err().contains("error: a bug in tracesync (" + e.getClass().getSimpleName() + ")"), r.err());
            assertTrue(r.err().contains("\tat io.tracesync.console.UserErrorsTest"), "the stack trace: " + r.err());
        }
    }

    @Test
    void verboseShowsEveryStackTrace() {
        Ended r = run(new UserError("no broker answers"), "--verbose");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("\tat "), r.err());
    }
}
