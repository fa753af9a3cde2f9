package io.tracesync.eval;

import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.network.Conversion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The answers around each clock jump, densely: every {@link #STEP_NS} from 1 s before the jump to 5 s after, each
 * affected node's reading converted live (the factor in force then) and after the fact (the factor history a minute
 * later), against the truth. A jump moves the relation of the jumping node to its reference, or, for a reference,
 * of every node of its component to it. Until a pair contradicts the jump, nothing tells it: answers there miss the
 * truth by the jump, live and after the fact alike; the question is how long after that each still misses it.
 *
 * @param samples       the samples taken around the jumps
 * @param liveOutside   live answers that missed the truth
 * @param liveLastNs    the latest of them after its jump, ns (−1: none)
 * @param liveAfter     of those, how many lay after the jump's detection (the first pair that contradicted it)
 * @param lateOutside   answers after the fact that missed the truth
 * @param lateLastNs    the latest of them after its jump, ns (−1: none)
 * @param lateAfter     of those, how many lay after the jump's detection
 */
record JumpWindows(long samples, long liveOutside, long liveLastNs, long liveAfter, long lateOutside,
        long lateLastNs, long lateAfter) {

    static final long STEP_NS = 10_000_000L;
    private static final long BEFORE_NS = 1_000_000_000L;
    private static final long AFTER_NS = 5_000_000_000L;
    static final Age LATE = new Age(Duration.ofMinutes(1));

    static JumpWindows of(Replay.Result replay, TrueClocks truth, Departures jumps, HistoryGate gate) {
        Map<String, List<FactorRow>> rows = new HashMap<>();
        replay.factors().forEach(r -> rows.computeIfAbsent(r.node(), k -> new ArrayList<>()).add(r));
        long[] c = new long[5];
        long liveLast = -1;
        long lateLast = -1;
        for (int i = 0; i < jumps.departures().size(); i++) {
            Departures.Departure j = jumps.departures().get(i);
            long detected = jumps.detectedNs()[i];
            HistorySweep late = new HistorySweep(replay.factors(), LATE, Integer.MAX_VALUE, gate);
            for (String node : affected(j, rows)) {
                List<FactorRow> own = rows.get(node);
                for (long t = j.trueNs() - BEFORE_NS; t <= j.trueNs() + AFTER_NS; t += STEP_NS) {
                    FactorRow live = inForce(own, t);
                    if (live == null || !live.bounded()) {
                        continue;
                    }
                    long local = truth.localAt(node, t);
                    c[0]++;
                    Conversion l = Conversion.of(live.factor(), local);
                    if (!inside(l.lowerNs(), l.upperNs(), truth.localAt(live.reference(), t))) {
                        c[1]++;
                        liveLast = Math.max(liveLast, t - j.trueNs());
                        c[2] += t >= detected ? 1 : 0;
                    }
                    HistoricConversion h = late.convert(node, t, local);
                    if (!inside(h.lowerNs(), h.upperNs(), truth.localAt(h.version().reference(), t))) {
                        c[3]++;
                        lateLast = Math.max(lateLast, t - j.trueNs());
                        c[4] += t >= detected ? 1 : 0;
                    }
                }
            }
        }
        return new JumpWindows(c[0], c[1], liveLast, c[2], c[3], lateLast, c[4]);
    }

    /** The nodes whose relation to their reference the jump moves: the node, or a reference's other nodes. */
    private static Set<String> affected(Departures.Departure j, Map<String, List<FactorRow>> rows) {
        Set<String> out = new TreeSet<>();
        rows.forEach((node, rs) -> {
            FactorRow last = rs.get(rs.size() - 1);
            if (!node.equals(j.node()) && last.reference().equals(j.node())) {
                out.add(node);
            }
        });
        if (out.isEmpty() && rows.containsKey(j.node())) {
            out.add(j.node());
        }
        return out;
    }

    /** The node's row drained last at or before t, or null. */
    private static FactorRow inForce(List<FactorRow> rows, long t) {
        int lo = 0;
        int hi = rows.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (rows.get(mid).trueNs() <= t) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return hi < 0 ? null : rows.get(hi);
    }

    private static boolean inside(Long lower, Long upper, long truth) {
        return lower != null && upper != null && lower <= truth && truth <= upper;
    }

    /** One line for the evaluation's findings. */
    String finding() {
        return String.format("around the jumps (every %d ms from 1 s before each to 5 s after, %,d samples): live "
                + "outside %,d (the last %s after its jump, %,d after its detection); after the fact (%s later) "
                + "outside %,d (the last %s after its jump, %,d after its detection)", STEP_NS / 1_000_000, samples,
                liveOutside, ms(liveLastNs), liveAfter, LATE.label(), lateOutside, ms(lateLastNs), lateAfter);
    }

    private static String ms(long ns) {
        return ns < 0 ? "-" : String.format("%.0f ms", ns / 1e6);
    }
}
