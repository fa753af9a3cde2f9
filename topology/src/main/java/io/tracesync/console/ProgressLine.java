package io.tracesync.console;

import io.tracesync.streams.config.Durations;
import io.tracesync.streams.metrics.PipelineStats;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The live line of the streaming commands: events in, pairs, accurate links, reference node, the widest bound of
 * the published factors, and the instance's state while it is not RUNNING (a second instance of the same
 * application waits in REBALANCING until the group gives it tasks). On a terminal it is redrawn in place; otherwise
 * (a log, a pipe) it is printed as a line every ten seconds.
 */
public final class ProgressLine {

    private static final long LOG_EVERY_NS = 10_000_000_000L;

    private final PrintWriter err;
    private final boolean console = System.console() != null;
    private long lastLogged = System.nanoTime();

    public ProgressLine(PrintWriter err) {
        this.err = err;
    }

    public static String format(PipelineStats s) {
        long worst = s.worstBoundPs.get();
        String state = s.state.get();
        return String.format(Locale.ROOT, "%sevents %,d  pairs %,d  accurate links %,d  reference %s  widest bound %s",
                state.equals("RUNNING") ? "" : state + "  ", s.events.get(), s.pairs.get(), s.accurateLinks.get(),
                s.reference.get().isEmpty() ? "-" : s.reference.get(),
                worst < 0 ? "-" : Durations.format(worst / 1e3));
    }

    public void show(PipelineStats s) {
        if (console) {
            err.print("\r" + format(s) + "   ");
            err.flush();
        } else if (System.nanoTime() - lastLogged >= LOG_EVERY_NS) {
            lastLogged = System.nanoTime();
            err.println(format(s));
            err.flush();
        }
    }

    /** Ends the line with the final figures. */
    public void finish(PipelineStats s) {
        err.println((console ? "\r" : "") + format(s) + "   ");
        err.flush();
    }
}
