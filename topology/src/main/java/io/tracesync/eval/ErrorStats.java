package io.tracesync.eval;

import java.util.Arrays;
import java.util.Locale;

/** True errors (ns) and whether each lay inside its bounds: median, p99 and max of |error|, % inside. */
public final class ErrorStats {

    private double[] abs = new double[16];
    private int count;
    private long bounded;
    private long inside;

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
        if (count == 0) {
            return Double.NaN;
        }
        Arrays.sort(abs, 0, count);
        return abs[Math.max(0, (int) Math.ceil(q * count) - 1)];
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "n=%d median=%.1fns p99=%.1fns max=%.1fns inside=%d/%d", count,
                medianNs(), p99Ns(), maxNs(), inside, bounded);
    }
}
