package io.tracesync.eval;

import io.tracesync.sim.GroundTruth;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far the simulated daemons' slews may take the clocks from smooth ones (docs/LINK-CORE.md, "Offset
 * excursions"): per node the largest offset its daemon set out to slew at one update — a slew moves its clock by at
 * most that from the clock without it — and the excursion that covers every link on that account, 2.002 times the
 * largest, beside what {@code link.excursion} allows. Conservative: a slow slew is a pair of small frequency steps,
 * which the clock model's curvature mostly takes up.
 *
 * @param perNodeNs each node's largest offset slewed, ascending
 */
record DaemonOffsets(double[] perNodeNs) {

    /** The factor from the largest excursion of one clock to a link's (docs/LINK-CORE.md, "Offset excursions"). */
    static final double PER_LINK = 2.002;

    static DaemonOffsets of(List<GroundTruth.Slew> slews) {
        Map<String, Double> most = new TreeMap<>();
        for (GroundTruth.Slew s : slews) {
            most.merge(s.node(), Math.abs(s.ns()), Math::max);
        }
        double[] v = most.values().stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return new DaemonOffsets(v);
    }

    /** The slews that take a clock further from a smooth one than an excursion of {@code excursionNs} allows. */
    static List<GroundTruth.Slew> beyond(List<GroundTruth.Slew> slews, long excursionNs) {
        return slews.stream().filter(s -> Math.abs(s.ns()) * PER_LINK > excursionNs).toList();
    }

    /** The line {@code evaluate} prints for a run whose daemons slew offsets. */
    String finding(long excursionNs) {
        double largest = perNodeNs[perNodeNs.length - 1];
        return String.format("the daemons' offsets slewed at one update (truth-clock-events.csv): per node the "
                + "largest, median %.1f, max %.1f µs; an excursion of %.3f × the largest, %.1f µs, covers them, "
                + "conservatively (link.excursion allows %.1f)", perNodeNs[perNodeNs.length / 2] / 1000,
                largest / 1000, PER_LINK, PER_LINK * largest / 1000, excursionNs / 1000.0);
    }
}
