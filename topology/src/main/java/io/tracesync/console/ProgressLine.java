package io.tracesync.console;

import io.tracesync.streams.config.Durations;
import io.tracesync.streams.metrics.PipelineStats;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The live line of the streaming commands: events in (of how many, where that is known), pairs, accurate links,
 * reference node, the widest bound of the published factors, and the instance's state while it is not RUNNING (a second instance of the same
 * application waits in REBALANCING until the group gives it tasks). On a terminal it is redrawn in place; otherwise
 * (a log, a pipe) it is printed as a line every ten seconds.
 */
public final class ProgressLine {

    private static final long LOG_EVERY_NS = 10_000_000_000L;

    private final PrintWriter err;
    private final long events;
    private final boolean console = System.console() != null;
    private long lastLogged = System.nanoTime();

    /** A line of an open-ended stream: events counted without a total. */
    public ProgressLine(PrintWriter err) {
        this(err, 0);
    }

    /** A line of {@code events} events in all (0: not known), each count shown with its share of them. */
    public ProgressLine(PrintWriter err, long events) {
        this.err = err;
        this.events = events;
    }

    /** The line's figures for a stream of {@code events} events in all (0: not known). */
    public static String format(PipelineStats s, long events) {
        long worst = s.worstBoundPs.get();
        String state = s.state.get();
        long in = s.events.get();
        String total = events > 0 ? String.format(Locale.ROOT, " of %,d (%d %%)", events,
                Math.min(100, in * 100 / events)) : "";
        return String.format(Locale.ROOT,
                "%sevents %,d%s  pairs %,d  accurate links %,d  reference %s  widest bound %s",
                state.equals("RUNNING") ? "" : state + "  ", in, total, s.pairs.get(), s.accurateLinks.get(),
                s.reference.get().isEmpty() ? "-" : s.reference.get(),
                worst < 0 ? "-" : Durations.format(worst / 1e3));
    }

    public void show(PipelineStats s) {
        if (console) {
            err.print("\r" + format(s, events) + "   ");
            err.flush();
        } else if (System.nanoTime() - lastLogged >= LOG_EVERY_NS) {
            lastLogged = System.nanoTime();
            err.println(format(s, events));
            err.flush();
        }
    }

    /** Ends the line with the final figures. */
    public void finish(PipelineStats s) {
        err.println((console ? "\r" : "") + format(s, events) + "   ");
        err.flush();
    }
}
