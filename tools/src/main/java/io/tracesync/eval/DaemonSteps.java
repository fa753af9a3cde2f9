package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth;
import io.tracesync.streams.config.Durations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * How far the simulated daemons stepped the links' relative frequencies (docs/LINK-CORE.md, "Frequency steps"): per
 * link the largest sum of the sizes of both ends' frequency steps within any τ — the κ its relation needs, since
 * the relative frequency steps by the difference of the two clocks' — beside what {@code link.step.ppb} allows.
 *
 * @param perLinkPpm each link's largest sum within τ, ascending
 */
record DaemonSteps(long tauNs, double[] perLinkPpm) {

    static DaemonSteps of(List<GroundTruth.FrequencyStep> steps, Collection<LinkKey> links, long tauNs) {
        double[] sums = new double[links.size()];
        int i = 0;
        for (LinkKey k : links) {
            List<GroundTruth.FrequencyStep> both = new ArrayList<>();
            for (GroundTruth.FrequencyStep s : steps) {
                if (s.node().equals(k.a()) || s.node().equals(k.b())) {
                    both.add(s);
                }
            }
            sums[i++] = largestWithin(both, tauNs);
        }
        Arrays.sort(sums);
        return new DaemonSteps(tauNs, sums);
    }

    /** The largest sum of |ppm| over steps within any half-open interval of length τ (steps in time order). */
    static double largestWithin(List<GroundTruth.FrequencyStep> steps, long tauNs) {
        double best = 0;
        double sum = 0;
        int from = 0;
        for (GroundTruth.FrequencyStep s : steps) {
            sum += Math.abs(s.ppm());
            while (steps.get(from).trueNs() <= s.trueNs() - tauNs) {
                sum -= Math.abs(steps.get(from++).ppm());
            }
            best = Math.max(best, sum);
        }
        return best;
    }

    /** The line {@code evaluate} prints for a run with a daemon. */
    String finding(double stepPpb) {
        return String.format("the daemons' frequency steps (truth-clock-events.csv): per link the largest sum of both "
                + "ends' within any %s, median %.3f, max %.3f ppm (link.step.ppb allows %.3f)",
                Durations.format((double) tauNs), perLinkPpm[perLinkPpm.length / 2],
                perLinkPpm[perLinkPpm.length - 1], stepPpb / 1000);
    }
}
