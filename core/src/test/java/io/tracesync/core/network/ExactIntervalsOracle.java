package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.BinaryOperator;

/**
 * The system of {@link NetworkIntervals}, solved exactly and simply: slope ranges as exact products of the links'
 * slope limits along paths (Bellman–Ford in the multiplicative semiring, no logarithms), every link's offset
 * interval in rationals without rounding, and Bellman–Ford on those. For a component, its evaluation points and
 * a set of links to leave out, it gives each node's exact interval of z_v = R_v(x_v) − F_v(x_v), or reports that
 * the system has a negative cycle.
 */
final class ExactIntervalsOracle {

    /** Per node the exact bounds of z_v in ps (null where unbounded), or {@code consistent} false. */
    record Answer(boolean consistent, Rational[] up, Rational[] down) {
    }

    private ExactIntervalsOracle() {
    }

    static Answer solve(NetworkIntervals.Component c, long[] x, boolean[] leftOut) {
        int n = x.length;
        int m = c.links().length;
        Rational[] tv = new Rational[n];
        for (int v = 0; v < n; v++) {
            tv[v] = v == 0 ? Rational.of(x[0]) : apply(c.treeMaps()[v], x[v]);
        }
        // κ: arc b→a with factor α_max (κ_a ≤ κ_b·α_max), arc a→b with 1/α_min (κ_b ≤ κ_a/α_min).
        int[] from = new int[2 * m];
        int[] to = new int[2 * m];
        Rational[] factor = new Rational[2 * m];
        Rational[] weight = new Rational[2 * m];
        int arcs = 0;
        for (int l = 0; l < m; l++) {
            if (leftOut[l]) {
                continue;
            }
            LinkEstimate e = c.links()[l];
            from[arcs] = c.linkB()[l];
            to[arcs] = c.linkA()[l];
            // the model's slope ranges, cut to [1/e, e] (NetworkIntervals.SLOPE_LIMIT)
            factor[arcs++] = exact(Math.min(e.maxSlope(), NetworkIntervals.SLOPE_LIMIT));
            from[arcs] = c.linkA()[l];
            to[arcs] = c.linkB()[l];
            factor[arcs++] = Rational.of(1).divide(exact(Math.max(e.minSlope(), 1 / NetworkIntervals.SLOPE_LIMIT)));
        }
        Rational[] kHigh = shortest(n, from, to, factor, arcs, true, Rational.of(1), Rational::multiply);
        Rational[] kLowInverse = shortest(n, from, to, factor, arcs, false, Rational.of(1), Rational::multiply);
        if (kHigh == null || kLowInverse == null) {
            return new Answer(false, null, null);
        }
        int offsetArcs = 0;
        int[] oFrom = new int[2 * m];
        int[] oTo = new int[2 * m];
        for (int l = 0; l < m; l++) {
            int a = c.linkA()[l];
            int b = c.linkB()[l];
            if (leftOut[l] || kHigh[b] == null) {
                continue;
            }
            LinkEstimate e = c.links()[l];
            Rational kLo = Rational.of(1).divide(kLowInverse[b]);
            Rational kHi = kHigh[b];
            Rational cv = apply(e.aToB(), x[a]).subtract(Rational.of(x[b])).multiply(Rational.of(1000));
            Rational top = cv.add(envelope(e, x[a], e.upPs(), e.maxSlope(), e.minSlope(), true));
            Rational bottom = cv.subtract(envelope(e, x[a], e.downPs(), e.minSlope(), e.maxSlope(), false));
            Rational delta = tv[b].subtract(tv[a]).multiply(Rational.of(1000));
            Rational upper = max(top.multiply(kLo), top.multiply(kHi)).add(delta);
            Rational lower = min(bottom.multiply(kLo), bottom.multiply(kHi)).add(delta);
            oFrom[offsetArcs] = b;
            oTo[offsetArcs] = a;
            weight[offsetArcs++] = upper;
            oFrom[offsetArcs] = a;
            oTo[offsetArcs] = b;
            weight[offsetArcs++] = lower.negate();
        }
        Rational[] up = shortest(n, oFrom, oTo, weight, offsetArcs, true, Rational.of(0), Rational::add);
        Rational[] down = shortest(n, oFrom, oTo, weight, offsetArcs, false, Rational.of(0), Rational::add);
        return up == null || down == null ? new Answer(false, null, null) : new Answer(true, up, down);
    }

    /**
     * The envelope's distance from the estimate at x (ps): the bound at the latest time plus |side − slope|·|d|,
     * the side's limit after the latest time and the other limit before it.
     */
    private static Rational envelope(LinkEstimate e, long x, long boundPs, double after, double before,
            boolean upper) {
        Rational slope = exact(e.aToB().slope());
        long d = x - e.latestNs();
        Rational limit = exact(d >= 0 ? after : before);
        Rational rate = upper == (d >= 0) ? limit.subtract(slope) : slope.subtract(limit);
        return Rational.of(boundPs).add(rate.multiply(Rational.of(Math.abs(d))).multiply(Rational.of(1000)));
    }

    /**
     * Shortest paths from node 0 (forward) or to it, a path's length being its arcs' weights combined by
     * {@code combine} from {@code identity} (sums from 0, or products from 1 for the slope ranges): Bellman–Ford;
     * null on a cycle that shortens paths forever; unreachable: null entries.
     */
    private static Rational[] shortest(int n, int[] from, int[] to, Rational[] weight, int arcs, boolean forward,
            Rational identity, BinaryOperator<Rational> combine) {
        Rational[] best = new Rational[n];
        best[0] = identity;
        for (int pass = 0; pass <= n; pass++) {
            boolean changed = false;
            for (int k = 0; k < arcs; k++) {
                int u = forward ? from[k] : to[k];
                int v = forward ? to[k] : from[k];
                if (best[u] != null) {
                    Rational d = combine.apply(best[u], weight[k]);
                    if (best[v] == null || d.compareTo(best[v]) < 0) {
                        best[v] = d;
                        changed = true;
                    }
                }
            }
            if (!changed) {
                return best;
            }
        }
        return null;
    }

    static Rational apply(ClockMap map, long x) {
        return exact(map.slope()).multiply(Rational.of(x)).add(exact(map.offset()));
    }

    static Rational exact(DoubleDouble d) {
        return exact(d.toBigDecimal());
    }

    static Rational exact(double d) {
        return exact(new BigDecimal(d));
    }

    static Rational exact(BigDecimal d) {
        BigInteger unscaled = d.unscaledValue();
        return d.scale() >= 0 ? Rational.of(unscaled, BigInteger.TEN.pow(d.scale()))
                : Rational.of(unscaled.multiply(BigInteger.TEN.pow(-d.scale())), BigInteger.ONE);
    }

    private static Rational max(Rational p, Rational q) {
        return p.compareTo(q) >= 0 ? p : q;
    }

    private static Rational min(Rational p, Rational q) {
        return p.compareTo(q) <= 0 ? p : q;
    }
}
