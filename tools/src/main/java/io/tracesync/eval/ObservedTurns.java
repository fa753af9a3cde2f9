package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth;
import io.tracesync.sim.PiecewiseLinearClock;
import java.util.Map;

/**
 * How fast each link's clocks turned as tracesync saw it ({@code observed_curvature_ppb_per_s}), beside the truth's
 * turn measured the same way: the mean slope of b's clock against a's over the last two epochs of the longest
 * window that ended by the link's latest time (on multiples of W/2 of a's clock, docs/LINK-CORE.md), their
 * difference over W/2.
 */
record ObservedTurns(double[] observed, double[] truth, boolean jumps) {

    /** The links' turns and the truth's; across clock jumps the truth's mean slopes measure the jumps: none then. */
    static ObservedTurns of(Map<LinkKey, Replay.LinkEnd> ends, GroundTruth truth, long windowNs) {
        double[] observed = ends.values().stream().mapToDouble(Replay.LinkEnd::observedTurnPpbPerS)
                .filter(v -> !Double.isNaN(v)).sorted().toArray();
        boolean jumps = !truth.jumps().isEmpty();
        double[] trueTurns = jumps ? new double[0] : ends.entrySet().stream()
                .mapToDouble(e -> trueTurn(truth.clock(e.getKey().a()), truth.clock(e.getKey().b()), windowNs,
                        e.getValue().latestX()))
                .filter(v -> !Double.isNaN(v)).sorted().toArray();
        return new ObservedTurns(observed, trueTurns, jumps);
    }

    /** The truth's turn over the two epochs of length w that ended last by a's reading {@code latestA}. */
    static double trueTurn(PiecewiseLinearClock a, PiecewiseLinearClock b, long w, long latestA) {
        long half = w / 2;
        long end = Math.floorDiv(latestA, half) * half;
        if (end - w - half < a.localAt(a.trueStart())) {
            return Double.NaN;
        }
        double newer = meanSlope(a, b, end - w, end);
        double older = meanSlope(a, b, end - w - half, end - half);
        return Math.abs(newer - older) / half * 1e18;
    }

    /** b's clock against a's over a's readings [x1, x2]. */
    private static double meanSlope(PiecewiseLinearClock a, PiecewiseLinearClock b, long x1, long x2) {
        return (double) (b.localAt(a.trueAt(x2)) - b.localAt(a.trueAt(x1))) / (x2 - x1);
    }

    String finding(double modelPpbPerS) {
        return String.format("the clocks' turn as the links show it (observed_curvature_ppb_per_s, %d links): "
                + "median %s, max %s ppb/s; %s (the model: %s ppb/s)", observed.length, at(observed, 0.5),
                at(observed, 1), jumps ? "the truth's is not measured across clock jumps"
                        : "the truth's, measured alike: median " + at(truth, 0.5) + ", max " + at(truth, 1),
                modelPpbPerS);
    }

    private static String at(double[] sorted, double q) {
        return sorted.length == 0 ? "-"
                : String.format("%.2f", sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    }
}
