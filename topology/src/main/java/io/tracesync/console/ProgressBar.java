package io.tracesync.console;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;

/**
 * A progress bar on the terminal for long reads: bytes consumed of a known total, redrawn at most every
 * 200 ms, and only when a person is watching (a console is attached) so logs and pipes stay clean.
 * {@link #meter} gives the same bar for any other quantity (e.g. simulated time).
 */
public final class ProgressBar extends FilterInputStream {

    private final Meter meter;
    private long done;

    ProgressBar(InputStream in, Meter meter) {
        super(in);
        this.meter = meter;
    }

    /** Wraps {@code in} with a bar if a console is attached, else returns it as it is. */
    public static InputStream wrap(InputStream in, long total, PrintWriter out, String label) {
        return System.console() == null || total <= 0 ? in : new ProgressBar(in, new Meter(total, out, label));
    }

    /** A bar of {@code total} units, drawn only if a console is attached. */
    public static Meter meter(long total, PrintWriter out, String label) {
        return new Meter(System.console() == null ? 0 : total, out, label);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        done += b < 0 ? 0 : 1;
        meter.update(done);
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        done += Math.max(n, 0);
        meter.update(done);
        return n;
    }

    @Override
    public void close() throws IOException {
        super.close();
        meter.close();
    }

    /** The bar itself: {@link #update} with the amount done; a total ≤ 0 draws nothing. */
    public static final class Meter implements AutoCloseable {

        private static final int WIDTH = 30;

        private final long total;
        private final PrintWriter out;
        private final String label;
        private long lastDraw;

        Meter(long total, PrintWriter out, String label) {
            this.total = total;
            this.out = out;
            this.label = label;
        }

        public void update(long done) {
            if (total <= 0) {
                return;
            }
            long now = System.nanoTime();
            if (now - lastDraw > 200_000_000L || done >= total) {
                lastDraw = now;
                long shown = Math.max(0, Math.min(done, total));
                int filled = (int) (WIDTH * shown / total);
                out.printf("\r%s [%s%s] %3d%%", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                        100 * shown / total);
                out.flush();
            }
        }

        /** Clears the bar's line. */
        @Override
        public void close() {
            if (total <= 0) {
                return;
            }
            out.print("\r" + " ".repeat(label.length() + WIDTH + 8) + "\r");
            out.flush();
        }
    }
}
