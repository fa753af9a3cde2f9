package io.tracesync.core.network;

import static io.tracesync.core.network.NetworkIntervals.LOG_UNIT;
import static io.tracesync.core.network.NetworkIntervals.POTENTIAL_LIMIT;
import static io.tracesync.core.network.NetworkIntervals.RELATIVE_MARGIN;
import static io.tracesync.core.network.NetworkIntervals.SLOPE_FIT_UNIT;
import static io.tracesync.core.network.NetworkIntervals.SLOPE_LIMIT;
import static io.tracesync.core.network.NetworkIntervals.UNBOUNDED_SLACK;
import static io.tracesync.core.network.NetworkIntervals.WEIGHT_LIMIT;

import io.tracesync.core.network.NetworkIntervals.Component;
import io.tracesync.core.network.NetworkIntervals.Result;
import io.tracesync.core.network.NetworkIntervals.Weighting;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.DoubleDoubleArithmetic;

/** The two systems of one component (log-slopes, then offsets) over the links not excluded, solved. */
final class IntervalSolution {

    long[] up;
    long[] down;
    /** Per link l, the slack of its four arcs (see {@link Result#slack}); null without a least-squares fit. */
    long[] slack;
    double[] slopeLow;
    double[] slopeHigh;
    double[] estimate;
    double[] slopeEstimate;
    int cycleLink = -1;
    int iterations;

    /** The estimate's shift of node v in ps, kept inside [−down, up]. */
    long shiftPs(int v) {
        if (estimate == null || up[v] == LinkEstimate.UNBOUNDED || down[v] == LinkEstimate.UNBOUNDED) {
            return 0;
        }
        return Math.max(-down[v], Math.min(up[v], Math.round(estimate[v])));
    }

    /**
     * Solves both systems; with a {@code weighting}, also the least-squares estimate. On a negative cycle,
     * {@code cycleLink} names the link to exclude.
     */
    static IntervalSolution solve(Component c, LinkTable table, long[] x, DoubleDouble[] tv, boolean[] excluded,
            Weighting weighting, long[] logSlopes) {
        IntervalSolution s = new IntervalSolution();
        int[] rows = taking(excluded); // the spanning tree's: n − 1 of m
        boolean onLinks = weighting != null;
        SlopeSystem slopes = SlopeSystem.of(c, table, x, rows, onLinks, logSlopes);
        if (!slopes.low().consistent()) {
            s.cycleLink = worstOfCycle(c, slopes.low().negativeCycle(), slopes.arcs(),
                    logResiduals(c, table, excluded));
            return s;
        }
        s.slopeRange(slopes, x.length);
        if (weighting != null) {
            s.slopeEstimate = fitSlopes(c, table, excluded, logSlopes, s.slopeHigh);
        }
        OffsetSystem offsets = s.offsetSystem(c, table, x, tv, rows, weighting);
        DifferenceConstraints system = offsets.arcs().system();
        long[] potential = weighting == null ? null : s.leastSquares(c, system, offsets, x.length);
        // the estimate satisfies nearly every link's interval: nearly every reduced weight is nonnegative
        DifferenceConstraints.Result fromRef = system.distances(0, true, null, potential);
        DifferenceConstraints.Result toRef = fromRef.consistent() ? system.distances(0, false, null, potential)
                : fromRef;
        if (!toRef.consistent()) {
            double[] r = s.estimate != null
                    ? offsetResiduals(c, s.estimate, offsets.mid(), offsets.lower(), offsets.upper(), excluded)
                    : widths(offsets.lower(), offsets.upper());
            s.cycleLink = worstOfCycle(c, toRef.negativeCycle(), offsets.arcs(), r);
            return s;
        }
        s.up = fromRef.distance();
        s.down = toRef.distance();
        if (onLinks) {
            s.slacks(c, rows, slopes, offsets);
        }
        return s;
    }

    /** The log-slope system over the links {@code rows}: each link's interval, its arcs, and both searches. */
    private record SlopeSystem(LinkArcs arcs, long[] logUpper, long[] logLower, DifferenceConstraints.Result high,
            DifferenceConstraints.Result low) {

        static SlopeSystem of(Component c, LinkTable table, long[] x, int[] rows, boolean onLinks,
                long[] logSlopes) {
            int m = c.links().length;
            LinkArcs logs = new LinkArcs(c, x.length, rows.length, onLinks);
            long[] logUpper = new long[m];
            long[] logLower = new long[m];
            for (int l : rows) {
                int a = c.linkA()[l];
                int b = c.linkB()[l];
                if (table.curvature[l] == 0) {
                    logUpper[l] = table.logUp[l];
                    logLower[l] = table.logDown[l];
                } else {
                    // under the clock model the slope turns by up to ρ′ per ns between the link's latest time
                    // and x_a
                    double turn = Math.nextUp(table.curvature[l] * Math.abs((double) x[a] - table.latest[l])
                            * (1 + 1e-9));
                    logUpper[l] = logUpWeight(turn == 0 ? table.maxSlope[l] : Math.nextUp(table.maxSlope[l] + turn));
                    logLower[l] = logDownWeight(turn == 0 ? table.minSlope[l]
                            : Math.nextDown(table.minSlope[l] - turn));
                }
                logs.link(l, a, b, logUpper[l], logLower[l]);
            }
            DifferenceConstraints logSystem = logs.system();
            DifferenceConstraints.Result high = logSystem.distances(0, true, null, logSlopes);
            DifferenceConstraints.Result low = high.consistent() ? logSystem.distances(0, false, null, logSlopes)
                    : high;
            return new SlopeSystem(logs, logUpper, logLower, high, low);
        }
    }

    /** The offset system's arcs, and per link its interval in ps (where it bounds) and its own estimate's weight. */
    private record OffsetSystem(LinkArcs arcs, double[] mid, double[] weight, long[] lower, long[] upper,
            boolean[] bounds) {
    }

    /** Each node's slope range from the two log-slope searches. */
    private void slopeRange(SlopeSystem slopes, int n) {
        long[] high = slopes.high().distance();
        long[] low = slopes.low().distance();
        slopeHigh = new double[n];
        slopeLow = new double[n];
        for (int v = 0; v < n; v++) {
            boolean known = high[v] != LinkEstimate.UNBOUNDED && low[v] != LinkEstimate.UNBOUNDED;
            slopeHigh[v] = known ? Math.nextUp(Math.nextUp(Math.exp(high[v] / LOG_UNIT))) : Double.POSITIVE_INFINITY;
            slopeLow[v] = known ? Math.nextDown(Math.nextDown(Math.exp(-low[v] / LOG_UNIT))) : 0;
        }
    }

    /** The offset system over the links {@code rows}, each link's interval taken through b's slope range. */
    private OffsetSystem offsetSystem(Component c, LinkTable table, long[] x, DoubleDouble[] tv, int[] rows,
            Weighting weighting) {
        int n = x.length;
        int m = c.links().length;
        OffsetSystem o = new OffsetSystem(new LinkArcs(c, n, rows.length, weighting != null), new double[m],
                new double[m], new long[m], new long[m], new boolean[m]);
        double[] scratch = new double[2];
        double[] tvHi = new double[n];
        double[] tvLo = new double[n];
        for (int v = 0; v < n; v++) {
            tvHi[v] = tv[v].hi();
            tvLo[v] = tv[v].lo();
        }
        for (int l : rows) {
            int a = c.linkA()[l];
            int b = c.linkB()[l];
            if (!Double.isFinite(slopeHigh[b])) {
                continue;
            }
            long u = table.upAt(l, x[a]);
            long d = table.downAt(l, x[a]);
            if (u == LinkEstimate.UNBOUNDED || d == LinkEstimate.UNBOUNDED) {
                continue;
            }
            double cPs = DoubleDoubleArithmetic.applyMinus(table.slopeHi[l], table.slopeLo[l],
                    table.offsetHi[l], table.offsetLo[l], x[a], x[b], scratch, 0) * 1000;
            DoubleDoubleArithmetic.add(tvHi[b], tvLo[b], -tvHi[a], -tvLo[a], scratch, 0);
            double dPs = (scratch[0] + scratch[1]) * 1000;
            double top = cPs + u;
            double bottom = cPs - d;
            double w = Math.max(top * slopeLow[b], top * slopeHigh[b]) + dPs;
            double v = Math.min(bottom * slopeLow[b], bottom * slopeHigh[b]) + dPs;
            double margin = 1 + (Math.abs(cPs) + u + d + Math.abs(dPs)) * slopeHigh[b] * RELATIVE_MARGIN;
            if (!(Math.abs(w) + margin < WEIGHT_LIMIT && Math.abs(v) + margin < WEIGHT_LIMIT)) {
                continue; // beyond any clock's range: this link constrains nothing usefully
            }
            o.upper()[l] = (long) Math.ceil(w + margin);
            o.lower()[l] = (long) Math.floor(v - margin);
            o.arcs().link(l, a, b, o.upper()[l], -o.lower()[l]); // z_a − z_b ≤ upper, z_b − z_a ≤ −lower
            o.bounds()[l] = true;
            // the link's own estimate, mapped as its interval is, kept inside the interval
            double point = cPs * ((slopeLow[b] + slopeHigh[b]) / 2) + dPs;
            o.mid()[l] = Math.min(Math.max(point, o.lower()[l]), o.upper()[l]);
            o.weight()[l] = weighting == null ? 0
                    : weighting.of(o.upper()[l] - (double) o.lower()[l], table.accuracy[l]);
        }
        return o;
    }

    /**
     * The offsets' least-squares estimate over the links' own estimates ({@link LeastSquaresOffsets}), and from it
     * the potential that makes nearly every reduced weight of the searches nonnegative.
     */
    private long[] leastSquares(Component c, DifferenceConstraints system, OffsetSystem o, int n) {
        // every link gives arcs both ways, so reaching from the reference is being connected to it
        boolean[] connected = system.reachable(0);
        double[] z = new double[n]; // 0: the tree factors' offsets
        LeastSquaresOffsets fit = new LeastSquaresOffsets(n, c.linkA(), c.linkB(), o.mid(), o.weight(),
                c.links().length);
        fit.solve(z, connected);
        iterations = fit.iterations();
        estimate = z;
        long[] potential = new long[n];
        for (int v = 1; v < n; v++) {
            potential[v] = connected[v] && Math.abs(z[v]) <= POTENTIAL_LIMIT ? Math.round(z[v]) : 0;
        }
        return potential;
    }

    /** Per link, the slack of its four arcs in the two systems (see {@link Result#slack}). */
    private void slacks(Component c, int[] rows, SlopeSystem slopes, OffsetSystem o) {
        slack = new long[4 * c.links().length];
        for (int l : rows) {
            int a = c.linkA()[l];
            int b = c.linkB()[l];
            if (o.bounds()[l]) {
                slack[4 * l] = slack(up, down, b, a, o.upper()[l]);
                slack[4 * l + 1] = slack(up, down, a, b, -o.lower()[l]);
            }
            slack[4 * l + 2] = slack(slopes.high().distance(), slopes.low().distance(), b, a, slopes.logUpper()[l]);
            slack[4 * l + 3] = slack(slopes.high().distance(), slopes.low().distance(), a, b, slopes.logLower()[l]);
        }
    }

    /**
     * How much the weight w of the arc u → v (x_v − x_u ≤ w) can drop before any node's bound moves: the least
     * of its reduced weights in the search from the reference ({@code from}) and towards it ({@code to}),
     * dist(u) + w − dist(v) and w + dist'(v) − dist'(u), each ≥ 0 at the distances; {@link
     * LinkEstimate#UNBOUNDED} where neither search reaches the arc. Dropping it by at most that leaves every
     * distance as it is, so every node's interval (Patt-Shamir &amp; Rajsbaum 1994's shortest paths).
     */
    private static long slack(long[] from, long[] to, int u, int v, long w) {
        long r = UNBOUNDED_SLACK;
        if (from[u] != LinkEstimate.UNBOUNDED && from[v] != LinkEstimate.UNBOUNDED) {
            r = Math.min(r, Math.max(0, from[u] + w - from[v]));
        }
        if (to[u] != LinkEstimate.UNBOUNDED && to[v] != LinkEstimate.UNBOUNDED) {
            r = Math.min(r, Math.max(0, w + to[v] - to[u]));
        }
        return r;
    }

    /** The links not excluded, in order. */
    private static int[] taking(boolean[] excluded) {
        int count = 0;
        for (boolean e : excluded) {
            count += e ? 0 : 1;
        }
        int[] rows = new int[count];
        for (int l = 0, k = 0; l < excluded.length; l++) {
            if (!excluded[l]) {
                rows[k++] = l;
            }
        }
        return rows;
    }

    /**
     * The slopes κ_v by weighted least squares over every link's log-slope range (its middle, weight 1 / its
     * width), started from the tree's: the loops average the slope errors out as they do the offsets'.
     */
    private static double[] fitSlopes(Component c, LinkTable table, boolean[] excluded, long[] logSlopes,
            double[] slopeHigh) {
        int n = logSlopes.length;
        int m = c.links().length;
        double[] target = new double[m];
        double[] weight = new double[m];
        for (int l = 0; l < m; l++) {
            if (!excluded[l]) {
                double lo = Math.log(table.minSlope[l]) * SLOPE_FIT_UNIT;
                double hi = Math.log(table.maxSlope[l]) * SLOPE_FIT_UNIT;
                target[l] = (lo + hi) / 2;
                weight[l] = 1 / Math.max(hi - lo, 1e-6);
            }
        }
        double[] lambda = new double[n];
        boolean[] connected = new boolean[n];
        for (int v = 0; v < n; v++) {
            lambda[v] = logSlopes[v] * (SLOPE_FIT_UNIT / LOG_UNIT);
            connected[v] = Double.isFinite(slopeHigh[v]);
        }
        new LeastSquaresOffsets(n, c.linkA(), c.linkB(), target, weight, m).solve(lambda, connected);
        double[] out = new double[n];
        for (int v = 0; v < n; v++) {
            out[v] = Math.exp(lambda[v] / SLOPE_FIT_UNIT);
        }
        return out;
    }

    /** The log system's weight x_a − x_b ≤ ln(max slope), the slope capped at {@code SLOPE_LIMIT}. */
    static long logUpWeight(double maxSlope) {
        return logUp(Math.log(Math.min(maxSlope, SLOPE_LIMIT)));
    }

    /** The log system's weight x_b − x_a ≤ −ln(min slope), the slope floored at 1 / {@code SLOPE_LIMIT}. */
    static long logDownWeight(double minSlope) {
        return logUp(-Math.log(Math.max(minSlope, 1 / SLOPE_LIMIT)));
    }

    /** ln α in LOG_UNIT, rounded up with a margin for Math.log's error (at most 1 ulp). */
    private static long logUp(double ln) {
        double v = ln * LOG_UNIT;
        return (long) Math.ceil(v + 2 + Math.abs(v) * RELATIVE_MARGIN);
    }

    /** Per link, how far the tree factors' log-slopes fall outside its range, relative to its width. */
    private static double[] logResiduals(Component c, LinkTable table, boolean[] excluded) {
        double[] r = new double[c.links().length];
        for (int l = 0; l < r.length; l++) {
            if (excluded[l]) {
                continue;
            }
            double lo = Math.log(table.minSlope[l]);
            double hi = Math.log(table.maxSlope[l]);
            double est = Math.log(c.treeMaps()[c.linkA()[l]].slope().hi())
                    - Math.log(c.treeMaps()[c.linkB()[l]].slope().hi());
            r[l] = Math.abs(est - (lo + hi) / 2) / Math.max(hi - lo, Double.MIN_NORMAL);
        }
        return r;
    }

    /** Per link, how far the estimate's z_a − z_b lies from the point it aimed at, relative to its width. */
    private static double[] offsetResiduals(Component c, double[] z, double[] target, long[] lower,
            long[] upper, boolean[] excluded) {
        double[] r = new double[lower.length];
        for (int l = 0; l < r.length; l++) {
            if (!excluded[l]) {
                double d = z[c.linkA()[l]] - z[c.linkB()[l]];
                r[l] = Math.abs(d - target[l]) / Math.max(upper[l] - (double) lower[l], 1);
            }
        }
        return r;
    }

    private static double[] widths(long[] lower, long[] upper) {
        double[] r = new double[lower.length];
        for (int l = 0; l < r.length; l++) {
            r[l] = 1 / Math.max(upper[l] - (double) lower[l], 1);
        }
        return r;
    }

    /** The link of the cycle with the largest residual; of equal ones, the first in name order. */
    private static int worstOfCycle(Component c, int[] cycle, LinkArcs arcs, double[] residual) {
        int worst = -1;
        for (int arc : cycle) {
            int l = arcs.linkOf(arc);
            if (worst < 0 || residual[l] > residual[worst] || (residual[l] == residual[worst]
                    && c.links()[l].key().toString().compareTo(c.links()[worst].key().toString()) < 0)) {
                worst = l;
            }
        }
        return worst;
    }
}
