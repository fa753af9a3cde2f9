package io.tracesync.it;

import io.tracesync.cli.TracesyncCommand;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One tracesync command run in this JVM: its exit code and what it printed. */
record Cli(int exit, String out, String err) {

    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = TracesyncCommand.commandLine().setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute(args);
        return new Cli(exit, out.toString(), err.toString());
    }
}
