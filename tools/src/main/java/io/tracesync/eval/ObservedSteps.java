package io.tracesync.eval;

import java.util.Arrays;
import java.util.Map;

/**
 * What the links saw of their clocks leaving the model: per link the largest step of the relative frequency beyond
 * it that its windows' epochs showed ({@code observed_step_ppb}, docs/LINK-CORE.md, "Frequency steps"), and how many
 * links a pair contradicting the model restarted.
 *
 * @param stepsPpb the links' observed steps where measured, ascending
 * @param links the links replayed
 * @param restarted the links restarted at least once
 */
record ObservedSteps(double[] stepsPpb, int links, long restarted) {

    static ObservedSteps of(Map<?, Replay.LinkEnd> ends) {
        double[] steps = ends.values().stream().mapToDouble(Replay.LinkEnd::observedStepPpb)
                .filter(v -> !Double.isNaN(v)).sorted().toArray();
        return new ObservedSteps(steps, ends.size(), ends.values().stream().filter(e -> e.failures() > 0).count());
    }

    /** The links whose epochs showed a step. */
    long stepped() {
        return Arrays.stream(stepsPpb).filter(v -> v > 0).count();
    }

    String finding() {
        return String.format("steps beyond the model as the links saw them (observed_step_ppb): %d of %d links "
                + "measured, %d with a step, the largest %s ppm; links restarted by a pair contradicting the model: "
                + "%d", stepsPpb.length, links, stepped(),
                stepsPpb.length == 0 ? "-" : String.format("%.3f", stepsPpb[stepsPpb.length - 1] / 1000), restarted);
    }
}
