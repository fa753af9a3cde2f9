package io.tracesync.eval;

import java.util.Arrays;
import java.util.Locale;

/** True errors (ns) and whether each lay inside its bounds: median, p99 and max of |error|, % inside. */
public final class ErrorStats {

    private double[] abs = new double[16];
    private int count;
    private long bounded;
    private long inside;
    private double[] widths = new double[16];
    private int widthCount;

    /** One error; {@code bounded} if it had finite bounds, {@code inside} if it lay within them. */
    public void add(double errorNs, boolean bounded, boolean inside) {
        if (count == abs.length) {
            abs = Arrays.copyOf(abs, 2 * count);
        }
        abs[count++] = Math.abs(errorNs);
        if (bounded) {
            this.bounded++;
        }
        if (inside) {
            this.inside++;
        }
    }

    /** The width (ns) of the bounds of one bounded error. */
    public void width(double ns) {
        if (widthCount == widths.length) {
            widths = Arrays.copyOf(widths, 2 * widthCount);
        }
        widths[widthCount++] = ns;
    }

    /** Median width of the bounds (up + down), ns; NaN without bounded errors. */
    public double medianWidthNs() {
        return quantile(widths, widthCount, 0.5);
    }

    /** Largest width of the bounds, ns; NaN without bounded errors. */
    public double maxWidthNs() {
        return quantile(widths, widthCount, 1);
    }

    public int count() {
        return count;
    }

    public long bounded() {
        return bounded;
    }

    public long inside() {
        return inside;
    }

    /** Share of the bounded errors inside their bounds, in %; NaN without bounded errors. */
    public double insidePercent() {
        return bounded == 0 ? Double.NaN : 100.0 * inside / bounded;
    }

    public double medianNs() {
        return quantile(0.5);
    }

    public double p99Ns() {
        return quantile(0.99);
    }

    public double maxNs() {
        return quantile(1);
    }

    /** Nearest-rank quantile of |error|; NaN when empty. */
    double quantile(double q) {
        return quantile(abs, count, q);
    }

    private static double quantile(double[] values, int n, double q) {
        if (n == 0) {
            return Double.NaN;
        }
        Arrays.sort(values, 0, n);
        return values[Math.max(0, (int) Math.ceil(q * n) - 1)];
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "n=%d median=%.1fns p99=%.1fns max=%.1fns inside=%d/%d", count,
                medianNs(), p99Ns(), maxNs(), inside, bounded);
    }
}
