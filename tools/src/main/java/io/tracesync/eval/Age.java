package io.tracesync.eval;

import java.time.Duration;
import java.util.Locale;

/**
 * How long after the fact a timestamp is converted: the factors drained up to that long after it are known then.
 * {@link #END} converts with every factor of the run.
 *
 * @param after the time after the fact, at least 0; null for the end of the run
 */
public record Age(Duration after) {

    /** At the end of the run: every factor known. */
    public static final Age END = new Age(null);

    public Age {
        if (after != null && after.isNegative()) {
            throw new IllegalArgumentException("an age cannot be negative: " + after);
        }
    }

    /** The latest drain known to a conversion of true time {@code trueNs} at this age. */
    long knownUntilNs(long trueNs) {
        if (after == null) {
            return Long.MAX_VALUE;
        }
        try {
            return Math.addExact(trueNs, after.toNanos());
        } catch (ArithmeticException beyondEveryTime) {
            return Long.MAX_VALUE;
        }
    }

    /** As the summary names it: {@code 0s}, {@code 10s}, {@code 1m}, {@code 1h}, {@code end}. */
    public String label() {
        return after == null ? "end" : after.toString().substring(2).toLowerCase(Locale.ROOT);
    }
}
