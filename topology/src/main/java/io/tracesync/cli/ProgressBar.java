package io.tracesync.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;

/**
 * A progress bar on the terminal for long reads: bytes consumed of a known total, redrawn at most every
 * 200 ms, and only when a person is watching (a console is attached) so logs and pipes stay clean.
 */
final class ProgressBar extends FilterInputStream {

    private static final int WIDTH = 30;

    private final long total;
    private final PrintWriter out;
    private final String label;
    private long done;
    private long lastDraw;

    private ProgressBar(InputStream in, long total, PrintWriter out, String label) {
        super(in);
        this.total = total;
        this.out = out;
        this.label = label;
    }

    /** Wraps {@code in} with a bar if a console is attached, else returns it as it is. */
    static InputStream wrap(InputStream in, long total, PrintWriter out, String label) {
        return System.console() == null || total <= 0 ? in : new ProgressBar(in, total, out, label);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        advance(b < 0 ? 0 : 1);
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        advance(Math.max(n, 0));
        return n;
    }

    private void advance(long n) {
        done += n;
        long now = System.nanoTime();
        if (now - lastDraw > 200_000_000L || done >= total) {
            lastDraw = now;
            int filled = (int) (WIDTH * Math.min(done, total) / total);
            out.printf("\r%s [%s%s] %3d%%", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                    100 * Math.min(done, total) / total);
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        super.close();
        out.print("\r" + " ".repeat(label.length() + WIDTH + 8) + "\r");
        out.flush();
    }
}
