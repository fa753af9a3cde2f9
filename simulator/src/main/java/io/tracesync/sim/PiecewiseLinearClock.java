package io.tracesync.sim;

import java.util.Arrays;

/**
 * A node's true clock as the simulator defines it: breakpoints (true_ns, local_ns), strictly increasing in both,
 * linear in between, read as the floor of the line rounded down to the timestamp resolution. Built from the
 * ground-truth table ({@code truth-clocks.csv}), it gives back exactly the timestamps the simulator wrote, and the
 * exact inverse: the first true time at which the clock shows a given reading.
 */
public final class PiecewiseLinearClock {

    private final long[] trueNs;
    private final long[] localNs;
    private final long resolution;

    /** Breakpoints in order (at least two), and the resolution in ns (≥ 1). */
    public PiecewiseLinearClock(long[] trueNs, long[] localNs, long resolution) {
        if (trueNs.length != localNs.length || trueNs.length < 2) {
            throw new IllegalArgumentException("a clock needs at least two breakpoints of (true_ns, local_ns)");
        }
        if (resolution < 1) {
            throw new IllegalArgumentException("resolution must be at least 1 ns: " + resolution);
        }
        for (int i = 1; i < trueNs.length; i++) {
            if (trueNs[i] <= trueNs[i - 1] || localNs[i] <= localNs[i - 1]) {
                throw new IllegalArgumentException("breakpoint " + i + " (" + trueNs[i] + ", " + localNs[i]
                        + ") does not increase on (" + trueNs[i - 1] + ", " + localNs[i - 1] + ")");
            }
        }
        this.trueNs = trueNs.clone();
        this.localNs = localNs.clone();
        this.resolution = resolution;
    }

    /** First true time covered. */
    public long trueStart() {
        return trueNs[0];
    }

    /** Last true time covered. */
    public long trueEnd() {
        return trueNs[trueNs.length - 1];
    }

    public long resolution() {
        return resolution;
    }

    /** The timestamp the node records at true time {@code t} (within [trueStart, trueEnd]). */
    public long localAt(long t) {
        if (t < trueStart() || t > trueEnd()) {
            throw new IllegalArgumentException("true time " + t + " outside the clock's [" + trueStart() + ", "
                    + trueEnd() + "]");
        }
        int i = floorIndex(trueNs, t);
        long continuous = i == trueNs.length - 1 ? localNs[i] : piece(i).localFloor(t);
        return ClockPiece.floorTo(continuous, resolution);
    }

    /**
     * The first true time at which the node's clock reads {@code local} or more: {@code localAt(trueAt(l)) >= l},
     * with equality for any reading the clock actually shows, and {@code localAt(trueAt(l) - 1) < l}.
     */
    public long trueAt(long local) {
        long first = ClockPiece.floorTo(localNs[0], resolution);
        long last = ClockPiece.floorTo(localNs[localNs.length - 1], resolution);
        if (local < first || local > last) {
            throw new IllegalArgumentException("local time " + local + " outside the clock's readings [" + first
                    + ", " + last + "]");
        }
        long m = ClockPiece.ceilTo(local, resolution);
        if (m <= localNs[0]) {
            return trueNs[0];
        }
        int i = floorIndex(localNs, m);
        return i == localNs.length - 1 ? trueNs[i] : piece(i).firstTrueReaching(m);
    }

    /** Mean rate offset over the whole clock, in ppm: (Δlocal/Δtrue − 1)·10⁶. */
    public double meanDriftPpm() {
        double dl = localNs[localNs.length - 1] - localNs[0];
        double dt = trueEnd() - trueStart();
        return (dl - dt) / dt * 1e6;
    }

    private ClockPiece piece(int i) {
        return new ClockPiece(trueNs[i], localNs[i], trueNs[i + 1], localNs[i + 1]);
    }

    /** Index of the last element ≤ v (v ≥ a[0]). */
    private static int floorIndex(long[] a, long v) {
        int i = Arrays.binarySearch(a, v);
        return i >= 0 ? i : -i - 2;
    }
}
