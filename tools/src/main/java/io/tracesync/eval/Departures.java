package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.sim.GroundTruth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The clocks' departures from the stated model and how soon the links notice them: no line of the model fits a
 * relation that departs from it, so the hulls come to contradict it [Poirier 2010, §4.5] and the link FAILs (and
 * restarts) at the first pair that does. For every departure, the true time to the first FAIL of one of the node's
 * links, before the node's next departure. Its <em>detection window</em> runs from the departure to
 * {@code settleNs} after that FAIL (the network hears of it and the factors are computed again): answers there are
 * the departure's due, answers elsewhere are the model's. A jump not detected before the node's next departure
 * stays pending for good (the clock stays off by it); a slew not detected opens no window — answers it moved
 * outside their bounds count as the model's failures.
 *
 * @param departures  the departures, in true time order
 * @param detectedNs  per departure, the true time of its detection ({@link Long#MAX_VALUE}: missed)
 */
record Departures(List<Departure> departures, long[] detectedNs) {

    /**
     * A clock leaving the model at true time {@code trueNs}: a jump ({@code sizeNs} the step) or a daemon's slew of
     * an offset larger than {@code link.excursion} lets a clock stray ({@code sizeNs} the offset).
     */
    record Departure(String node, long trueNs, long sizeNs, boolean jump) {

        static Departure of(GroundTruth.Jump j) {
            return new Departure(j.node(), j.trueNs(), j.sizeNs(), true);
        }

        static Departure of(GroundTruth.Slew s) {
            return new Departure(s.node(), s.trueNs(), Math.round(s.ns()), false);
        }
    }

    static Departures of(List<Departure> departures, Map<LinkKey, LinkTiming> links) {
        Map<String, List<LinkTiming>> byNode = new HashMap<>();
        links.forEach((k, t) -> {
            byNode.computeIfAbsent(k.a(), n -> new ArrayList<>()).add(t);
            byNode.computeIfAbsent(k.b(), n -> new ArrayList<>()).add(t);
        });
        List<Departure> sorted = departures.stream()
                .sorted((x, y) -> Long.compare(x.trueNs(), y.trueNs())).toList();
        Map<String, Long> nextOfNode = new HashMap<>();
        long[] next = new long[sorted.size()];
        for (int i = sorted.size() - 1; i >= 0; i--) {
            next[i] = nextOfNode.getOrDefault(sorted.get(i).node(), Long.MAX_VALUE);
            nextOfNode.put(sorted.get(i).node(), sorted.get(i).trueNs());
        }
        long[] detected = new long[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            Departure d = sorted.get(i);
            long first = Long.MAX_VALUE;
            for (LinkTiming t : byNode.getOrDefault(d.node(), List.of())) {
                OptionalLong f = t.firstFailureFrom(d.trueNs());
                if (f.isPresent()) {
                    first = Math.min(first, f.getAsLong());
                }
            }
            detected[i] = first < next[i] ? first : Long.MAX_VALUE;
        }
        return new Departures(sorted, detected);
    }

    /** The jumps among the departures, with their detections, in true time order. */
    Departures jumps() {
        return only(Departure::jump);
    }

    /** The slews among the departures, with their detections. */
    Departures slews() {
        return only(d -> !d.jump());
    }

    private Departures only(Predicate<Departure> which) {
        List<Departure> kept = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        for (int i = 0; i < departures.size(); i++) {
            if (which.test(departures.get(i))) {
                kept.add(departures.get(i));
                at.add(detectedNs[i]);
            }
        }
        return new Departures(kept, at.stream().mapToLong(Long::longValue).toArray());
    }

    /** Whether true time t lies in a detection window, each ending {@code settleNs} after its detection. */
    boolean pendingAt(long t, long settleNs) {
        for (int i = 0; i < departures.size(); i++) {
            Departure d = departures.get(i);
            if (t >= d.trueNs() && (detectedNs[i] == Long.MAX_VALUE ? d.jump() : t - detectedNs[i] <= settleNs)) {
                return true;
            }
        }
        return false;
    }

    /** The true time the detection windows cover within [fromNs, toNs], their overlaps counted once. */
    long windowsNs(long fromNs, long toNs, long settleNs) {
        List<long[]> spans = new ArrayList<>();
        for (int i = 0; i < departures.size(); i++) {
            Departure d = departures.get(i);
            if (detectedNs[i] != Long.MAX_VALUE || d.jump()) {
                long end = detectedNs[i] == Long.MAX_VALUE ? toNs : detectedNs[i] + settleNs;
                spans.add(new long[] {Math.max(fromNs, d.trueNs()), Math.min(toNs, end)});
            }
        }
        spans.sort((x, y) -> Long.compare(x[0], y[0]));
        long covered = 0;
        long reached = Long.MIN_VALUE;
        for (long[] s : spans) {
            long from = Math.max(s[0], reached);
            if (s[1] > from) {
                covered += s[1] - from;
            }
            reached = Math.max(reached, s[1]);
        }
        return covered;
    }

    /** From each detected departure to its detection, sorted. */
    long[] delaysNs() {
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < departures.size(); i++) {
            if (detectedNs[i] != Long.MAX_VALUE) {
                delays.add(detectedNs[i] - departures.get(i).trueNs());
            }
        }
        return sorted(delays);
    }

    /** The sizes of the departures not detected, by magnitude. */
    long[] missedNs() {
        List<Long> missed = new ArrayList<>();
        for (int i = 0; i < departures.size(); i++) {
            if (detectedNs[i] == Long.MAX_VALUE) {
                missed.add(Math.abs(departures.get(i).sizeNs()));
            }
        }
        return sorted(missed);
    }

    /**
     * One line for the evaluation's findings: of the factor samples outside their bounds, how many lie in the
     * detection windows, and how much of the run those cover.
     */
    String outsideFinding(Replay.Result replay, TrueClocks truth) {
        long settle = 2 * replay.intervalNs();
        long[] counts = new long[2];
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        Metrics.forEachError(replay, truth, (row, t, e) -> {
            span[0] = Math.min(span[0], t);
            span[1] = Math.max(span[1], t);
            if (row.bounded() && !row.contains(truth.localAt(row.node(), t), e)) {
                counts[0]++;
                counts[1] += pendingAt(t, settle) ? 1 : 0;
            }
        });
        return String.format("factor samples outside their bounds: %d, %d of them in the detection windows (from "
                + "a departure to two recomputations after its detection: %s of the run's %s), %d elsewhere",
                counts[0], counts[1], seconds(span[1] < span[0] ? 0 : windowsNs(span[0], span[1], settle)),
                seconds(Math.max(0, span[1] - span[0])), counts[0] - counts[1]);
    }

    /** One line for the evaluation's findings, naming the departures {@code what} (e.g. "clock jumps"). */
    String finding(String what) {
        long[] delays = delaysNs();
        long[] missed = missedNs();
        String detected = delays.length == 0 ? "none detected"
                : String.format("%d detected by a FAIL of one of the node's links, %s after the departure at the "
                        + "median, %s at most", delays.length, seconds(delays[delays.length / 2]),
                        seconds(delays[delays.length - 1]));
        String notDetected = missed.length == 0 ? "" : String.format("; %d not detected (sizes %s to %s)",
                missed.length, seconds(missed[0]), seconds(missed[missed.length - 1]));
        return what + ": " + departures.size() + ", " + detected + notDetected;
    }

    private static long[] sorted(List<Long> values) {
        long[] a = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    private static String seconds(long ns) {
        return ns >= 1_000_000_000L ? String.format("%.2f s", ns / 1e9)
                : ns >= 1_000_000 ? String.format("%.1f ms", ns / 1e6)
                : ns >= 1_000 ? String.format("%.1f µs", ns / 1e3) : ns + " ns";
    }
}
