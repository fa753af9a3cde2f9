package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Slow, exact reference for one link, recomputed from scratch from every point. The feasible set is
 * P = {(m, c) : m·x_u + c <= y_u for u in U (a→b), m·x_d + c >= y_d for d in D (b→a)}; L_min / L_max are
 * Poirier 2010 LP 5 (minimise / maximise m over P) and {@link #upperAt} / {@link #lowerAt} are LP 6
 * (sup / inf of m·t + c over P). Every LP has two variables, so each is solved by projecting P onto the objective
 * with a single Fourier–Motzkin elimination of the other variable: O(n^2) pairs, BigInteger throughout, and no
 * special case for equal x, duplicate or collinear points, P without vertices, or unbounded P. Test oracle only.
 */
final class OfflineLinkOracle {

    private final List<long[]> upper;
    private final List<long[]> lower;
    private final LinkQuality quality;
    private Rational slopeMin;
    private Rational interceptMin;
    private Rational slopeMax;
    private Rational interceptMax;

    private OfflineLinkOracle(List<long[]> upper, List<long[]> lower) {
        this.upper = copy(upper);
        this.lower = copy(lower);
        if (upper.isEmpty() && lower.isEmpty()) {
            quality = LinkQuality.ABSENT;
        } else if (upper.isEmpty() || lower.isEmpty()) {
            quality = LinkQuality.INCOMPLETE; // m is free: c alone can absorb any slope on the open side
        } else {
            // LP 5: project P onto m (v = m, w = c). Point constraint s·(m·x + c) <= s·y, s = +1 for U, -1 for D.
            List<BigInteger[]> cs = new ArrayList<>();
            for (long[] p : this.upper) {
                cs.add(new BigInteger[] {big(p[0]), BigInteger.ONE, big(p[1])});
            }
            for (long[] p : this.lower) {
                cs.add(new BigInteger[] {big(p[0]).negate(), BigInteger.ONE.negate(), big(p[1]).negate()});
            }
            Rational[] m = project(cs);
            if (m == null) {
                quality = LinkQuality.FAIL;
            } else {
                slopeMin = m[0];
                slopeMax = m[1];
                interceptMin = slopeMin == null ? null : interceptAt(slopeMin);
                interceptMax = slopeMax == null ? null : interceptAt(slopeMax);
                quality = slopeMin != null && slopeMax != null ? LinkQuality.ACCURATE : LinkQuality.APPROXIMATE;
            }
        }
    }

    /** Points as long[]{x, y}. Lists may be empty; duplicates allowed; any order. */
    static OfflineLinkOracle solve(List<long[]> upper, List<long[]> lower) {
        return new OfflineLinkOracle(upper, lower);
    }

    LinkQuality quality() {
        return quality;
    }

    /** L_max slope: null unless both directions are present, P is non-empty and the maximum is bounded. */
    Rational slopeMax() {
        return slopeMax;
    }

    Rational interceptMax() {
        return interceptMax;
    }

    /** L_min slope: null unless both directions are present, P is non-empty and the minimum is bounded. */
    Rational slopeMin() {
        return slopeMin;
    }

    Rational interceptMin() {
        return interceptMin;
    }

    /** LP 6: sup over P of m·t + c; null if +infinity. */
    Rational upperAt(long t) {
        return atTime(t)[1];
    }

    /** inf over P of m·t + c; null if -infinity. */
    Rational lowerAt(long t) {
        return atTime(t)[0];
    }

    /** Range of m·t + c over P: project P onto v = m·t + c (w = m, so c = v - t·w). */
    private Rational[] atTime(long t) {
        if (quality == LinkQuality.ABSENT || quality == LinkQuality.FAIL) {
            throw new IllegalStateException("no feasible set: " + quality);
        }
        BigInteger bt = big(t);
        List<BigInteger[]> cs = new ArrayList<>();
        for (long[] p : upper) { // v + (x - t)·w <= y
            cs.add(new BigInteger[] {BigInteger.ONE, big(p[0]).subtract(bt), big(p[1])});
        }
        for (long[] p : lower) { // -(v + (x - t)·w) <= -y
            cs.add(new BigInteger[] {BigInteger.ONE.negate(), bt.subtract(big(p[0])), big(p[1]).negate()});
        }
        Rational[] range = project(cs);
        if (range == null) {
            throw new IllegalStateException("P empty at LP 6 although quality is " + quality);
        }
        return range;
    }

    /**
     * The projection onto v of {(v, w) : a·v + b·w <= r for every {a, b, r} in cs}, by Fourier–Motzkin elimination
     * of w (exact): {lo, hi} with null for an infinite end, or null if the set is empty.
     */
    static Rational[] project(List<BigInteger[]> cs) {
        List<BigInteger[]> oneDim = new ArrayList<>(); // {k, r}: k·v <= r
        for (BigInteger[] p : cs) {
            if (p[1].signum() == 0) {
                oneDim.add(new BigInteger[] {p[0], p[2]});
            } else if (p[1].signum() > 0) {
                for (BigInteger[] q : cs) {
                    if (q[1].signum() < 0) { // (-b_q)·p + b_p·q has no w term; both multipliers are positive
                        BigInteger f = q[1].negate();
                        BigInteger g = p[1];
                        oneDim.add(new BigInteger[] {
                            f.multiply(p[0]).add(g.multiply(q[0])), f.multiply(p[2]).add(g.multiply(q[2]))});
                    }
                }
            }
        }
        Rational lo = null;
        Rational hi = null;
        for (BigInteger[] k : oneDim) {
            int s = k[0].signum();
            if (s == 0) {
                if (k[1].signum() < 0) {
                    return null; // 0 <= negative
                }
            } else {
                Rational bound = Rational.of(k[1], k[0]); // v <= r/k if k > 0, v >= r/k if k < 0
                if (s > 0 && (hi == null || bound.compareTo(hi) < 0)) {
                    hi = bound;
                } else if (s < 0 && (lo == null || bound.compareTo(lo) > 0)) {
                    lo = bound;
                }
            }
        }
        return lo != null && hi != null && lo.compareTo(hi) > 0 ? null : new Rational[] {lo, hi};
    }

    /** The intercept of the feasible line of slope m, which is unique when m is an end of the feasible slopes. */
    private Rational interceptAt(Rational m) {
        Rational hi = null;
        Rational lo = null;
        for (long[] p : upper) {
            Rational c = Rational.of(p[1]).subtract(m.multiply(Rational.of(p[0])));
            hi = hi == null || c.compareTo(hi) < 0 ? c : hi;
        }
        for (long[] p : lower) {
            Rational c = Rational.of(p[1]).subtract(m.multiply(Rational.of(p[0])));
            lo = lo == null || c.compareTo(lo) > 0 ? c : lo;
        }
        if (!hi.equals(lo)) {
            throw new IllegalStateException("intercept at extreme slope " + m + " not unique: [" + lo + ", " + hi + "]");
        }
        return hi;
    }

    private static List<long[]> copy(List<long[]> points) {
        List<long[]> out = new ArrayList<>();
        for (long[] p : points) {
            if (p.length != 2) {
                throw new IllegalArgumentException("point must be {x, y}");
            }
            out.add(p.clone());
        }
        return out;
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }
}
