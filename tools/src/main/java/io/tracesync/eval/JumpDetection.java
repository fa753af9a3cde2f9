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
 * @param pending    per jump, the true times from it to its detection ({start, end}; end MAX_VALUE if missed)
 */
record JumpDetection(long[] delaysNs, long[] missedNs, List<long[]> pending) {

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
        List<long[]> pending = new ArrayList<>();
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
                pending.add(new long[] {j.trueNs(), first});
            } else {
                missed.add(j.sizeNs());
                pending.add(new long[] {j.trueNs(), Long.MAX_VALUE});
            }
        }
        return new JumpDetection(sorted(delays), sorted(missed), pending);
    }

    /**
     * Whether true time t lies between a jump and its detection, or within {@code settleNs} after it (the network
     * hears of the FAIL and the factors are computed again): the samples outside their bounds there are the jumps'
     * due, the others are not.
     */
    boolean pendingAt(long t, long settleNs) {
        for (long[] p : pending) {
            if (t >= p[0] && (p[1] == Long.MAX_VALUE || t - p[1] <= settleNs)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One line for the evaluation's findings: of the factor samples outside their bounds, how many lie between a
     * jump and one recomputation after its detection.
     */
    String outsideFinding(Replay.Result replay, TrueClocks truth) {
        long[] counts = new long[2];
        Metrics.forEachError(replay, truth, (row, t, e) -> {
            if (row.bounded() && !row.contains(truth.localAt(row.node(), t), e)) {
                counts[0]++;
                counts[1] += pendingAt(t, 2 * replay.intervalNs()) ? 1 : 0;
            }
        });
        return String.format("factor samples outside their bounds: %d, %d of them between a jump and two "
                + "recomputations after its detection, %d elsewhere", counts[0], counts[1], counts[0] - counts[1]);
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
