package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How soon a node's links notice its clock jumping: no line fits a relation that steps, so the hulls come to
 * intersect [Poirier 2010, §4.5] and the link FAILs at the first pair that contradicts the others. For every jump of
 * the ground truth, the true time from the jump to the first FAIL of one of the node's links, before its next jump;
 * a jump smaller than what the corridor already allows is not noticed at all.
 *
 * @param delaysNs   time from each detected jump to its detection, sorted
 * @param missedNs   sizes of the jumps not detected before the node's next one, sorted
 */
record JumpDetection(long[] delaysNs, long[] missedNs) {

    static JumpDetection of(List<GroundTruth.Jump> jumps, Map<LinkKey, LinkTiming> links) {
        Map<String, List<LinkTiming>> byNode = new HashMap<>();
        links.forEach((k, t) -> {
            byNode.computeIfAbsent(k.a(), n -> new ArrayList<>()).add(t);
            byNode.computeIfAbsent(k.b(), n -> new ArrayList<>()).add(t);
        });
        Map<String, Long> nextJump = new HashMap<>();
        long[] next = new long[jumps.size()];
        for (int i = jumps.size() - 1; i >= 0; i--) {
            next[i] = nextJump.getOrDefault(jumps.get(i).node(), Long.MAX_VALUE);
            nextJump.put(jumps.get(i).node(), jumps.get(i).trueNs());
        }
        List<Long> delays = new ArrayList<>();
        List<Long> missed = new ArrayList<>();
        for (int i = 0; i < jumps.size(); i++) {
            GroundTruth.Jump j = jumps.get(i);
            long first = Long.MAX_VALUE;
            for (LinkTiming t : byNode.getOrDefault(j.node(), List.of())) {
                OptionalLong f = t.firstFailureFrom(j.trueNs());
                if (f.isPresent()) {
                    first = Math.min(first, f.getAsLong());
                }
            }
            if (first < next[i]) {
                delays.add(first - j.trueNs());
            } else {
                missed.add(j.sizeNs());
            }
        }
        return new JumpDetection(sorted(delays), sorted(missed));
    }

    private static long[] sorted(List<Long> values) {
        long[] a = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    /** One line for the evaluation's findings. */
    String finding() {
        int all = delaysNs.length + missedNs.length;
        String detected = delaysNs.length == 0 ? "none detected"
                : String.format("%d detected by a FAIL of one of the node's links, %s after the jump at the median, "
                        + "%s at most", delaysNs.length, seconds(delaysNs[delaysNs.length / 2]),
                        seconds(delaysNs[delaysNs.length - 1]));
        String notDetected = missedNs.length == 0 ? "" : String.format("; %d not detected (sizes %s to %s)",
                missedNs.length, seconds(missedNs[0]), seconds(missedNs[missedNs.length - 1]));
        return "clock jumps: " + all + ", " + detected + notDetected;
    }

    private static String seconds(long ns) {
        return ns >= 1_000_000_000L ? String.format("%.2f s", ns / 1e9)
                : ns >= 1_000_000 ? String.format("%.1f ms", ns / 1e6)
                : ns >= 1_000 ? String.format("%.1f µs", ns / 1e3) : ns + " ns";
    }
}
