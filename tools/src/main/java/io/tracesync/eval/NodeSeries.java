package io.tracesync.eval;

import io.tracesync.core.network.LinkEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's accuracy over time, as the report plots it: at each sample (true time) the true error of the factor
 * in force against its reference's true clock, and its guaranteed band [−up, +down] (the truth lies in
 * [estimate − down, estimate + up]); NaN bounds where the factor is unbounded. Statistics are over every sample;
 * the series kept for plotting are thinned to at most a given number of points, keeping each bucket's smallest and
 * largest error so that no peak is lost. {@code references}: those the node was measured against, in the order they
 * came (more than one when the reference moved during the run).
 */
record NodeSeries(String node, List<String> references, ErrorStats stats, long[] trueNs, double[] errorNs,
        double[] upNs, double[] downNs) {

    /** The series of every node that had a factor against another node, by name. */
    static Map<String, NodeSeries> of(Replay.Result replay, TrueClocks truth, int maxPoints) {
        Map<String, Builder> builders = new TreeMap<>();
        Metrics.forEachError(replay, truth, (row, t, e) -> {
            long local = truth.localAt(row.node(), t);
            Builder b = builders.computeIfAbsent(row.node(), Builder::new);
            if (b.references.isEmpty() || !b.references.get(b.references.size() - 1).equals(row.reference())) {
                b.references.add(row.reference());
            }
            b.stats.add(e, row.bounded(), row.contains(local, e));
            double up = row.bounded() ? bound(row.upAtPs(local)) : Double.NaN;
            double down = row.bounded() ? bound(row.downAtPs(local)) : Double.NaN;
            if (row.bounded()) {
                b.stats.width(up + down);
            }
            b.samples.add(new Sample(t, e, up, down));
        });
        Map<String, NodeSeries> out = new TreeMap<>();
        builders.forEach((node, b) -> out.put(node, b.build(maxPoints)));
        return out;
    }

    private static double bound(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? Double.NaN : ps / 1e3;
    }

    private record Sample(long trueNs, double errorNs, double upNs, double downNs) {
    }

    private static final class Builder {
        final String node;
        final ErrorStats stats = new ErrorStats();
        final List<Sample> samples = new ArrayList<>();
        final List<String> references = new ArrayList<>();

        Builder(String node) {
            this.node = node;
        }

        NodeSeries build(int maxPoints) {
            List<Sample> kept = thin(samples, maxPoints);
            int n = kept.size();
            long[] t = new long[n];
            double[] e = new double[n];
            double[] up = new double[n];
            double[] down = new double[n];
            for (int i = 0; i < n; i++) {
                Sample s = kept.get(i);
                t[i] = s.trueNs();
                e[i] = s.errorNs();
                up[i] = s.upNs();
                down[i] = s.downNs();
            }
            return new NodeSeries(node, List.copyOf(references), stats, t, e, up, down);
        }
    }

    /** At most {@code maxPoints} samples in time order: per bucket of consecutive samples, its min and max error. */
    private static List<Sample> thin(List<Sample> samples, int maxPoints) {
        if (samples.size() <= maxPoints) {
            return samples;
        }
        int buckets = maxPoints / 2;
        List<Sample> kept = new ArrayList<>(maxPoints);
        for (int k = 0; k < buckets; k++) {
            int from = (int) ((long) samples.size() * k / buckets);
            int to = (int) ((long) samples.size() * (k + 1) / buckets);
            int lo = from;
            int hi = from;
            for (int i = from; i < to; i++) {
                lo = samples.get(i).errorNs() < samples.get(lo).errorNs() ? i : lo;
                hi = samples.get(i).errorNs() > samples.get(hi).errorNs() ? i : hi;
            }
            kept.add(samples.get(Math.min(lo, hi)));
            if (lo != hi) {
                kept.add(samples.get(Math.max(lo, hi)));
            }
        }
        return kept;
    }
}
