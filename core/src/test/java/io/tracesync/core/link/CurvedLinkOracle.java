package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact bounds of one link whose clock relation y = g(x) is not a line but bends by at most ρ′ — every second
 * divided difference of g is at most ρ′/2 in magnitude, which for a smooth g says |g″| ≤ ρ′: the relative frequency
 * of the two clocks changes by at most ρ′ per unit of x. Test oracle: rationals throughout, recomputed from every
 * point (Fourier–Motzkin as {@link OfflineLinkOracle}).
 *
 * <p>Why the bounds hold. Let [u, v] hold every point and ℓ be the chord of g over it. For any x,
 * g(x) − ℓ(x) = g[u, v, x]·(x − u)(x − v), so |g(x) − ℓ(x)| ≤ ε(x) = ρ′·|x − u|·|x − v|/2. A message a→b gives a
 * point (x, y) with y ≥ g(x), hence ℓ(x) ≤ y + ε(x); a message b→a one with y ≤ g(x), hence ℓ(x) ≥ y − ε(x). So ℓ
 * lies in the feasible set of the relaxed constraints (Poirier's LP 5/6 [Poirier 2010, §3.1] with every a→b point
 * raised and every b→a point lowered by its ε), which is never empty when g satisfies the model, and at any time t,
 * g(t) ∈ [min ℓ(t) − ε(t), max ℓ(t) + ε(t)], the min and max taken over that set. The uniform relaxation
 * ε = ρ′(v − u)²/8, the largest ε(x) inside [u, v], holds as well (a larger set, wider bounds).
 */
final class CurvedLinkOracle {

    private final List<Rational[]> upper = new ArrayList<>();
    private final List<Rational[]> lower = new ArrayList<>();
    private final Rational halfRho;
    private final long u;
    private final long v;

    /**
     * The relaxed link of a→b points {@code aToB} (above g) and b→a points {@code bToA} (below g), as {x, y}; {@code
     * rho} is ρ′ per unit of x; {@code uniform} relaxes every point by ρ′(v − u)²/8 instead of its own ε(x).
     */
    CurvedLinkOracle(List<long[]> aToB, List<long[]> bToA, Rational rho, boolean uniform) {
        this.halfRho = rho.multiply(Rational.of(1, 2));
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (List<long[]> side : List.of(aToB, bToA)) {
            for (long[] p : side) {
                lo = Math.min(lo, p[0]);
                hi = Math.max(hi, p[0]);
            }
        }
        this.u = lo;
        this.v = hi;
        Rational widest = rho.multiply(Rational.of(hi - lo).multiply(Rational.of(hi - lo))).divide(Rational.of(8));
        for (long[] p : aToB) {
            upper.add(new Rational[] {Rational.of(p[0]), Rational.of(p[1]).add(uniform ? widest : within(p[0]))});
        }
        for (long[] p : bToA) {
            lower.add(new Rational[] {Rational.of(p[0]), Rational.of(p[1]).subtract(uniform ? widest : within(p[0]))});
        }
    }

    /** ε(x) = ρ′·|x − u|·|x − v|/2: how far g may be from its chord over [u, v] at x. */
    Rational within(long x) {
        Rational e = halfRho.multiply(Rational.of(x).subtract(Rational.of(u)).multiply(Rational.of(v).subtract(
                Rational.of(x))));
        return e.signum() < 0 ? e.negate() : e;
    }

    long start() {
        return u;
    }

    long end() {
        return v;
    }

    /** Whether some line satisfies the relaxed constraints (both directions present). */
    boolean feasible() {
        return range(Rational.of(0), true) != null;
    }

    /** The largest value g(t) may take: max ℓ(t) over the relaxed set plus ε(t); null if unbounded. */
    Rational upperAt(long t) {
        Rational[] r = range(Rational.of(t), false);
        return r[1] == null ? null : r[1].add(within(t));
    }

    /** The smallest value g(t) may take: min ℓ(t) over the relaxed set minus ε(t); null if unbounded. */
    Rational lowerAt(long t) {
        Rational[] r = range(Rational.of(t), false);
        return r[0] == null ? null : r[0].subtract(within(t));
    }

    /** The slopes of the relaxed set: {min, max}, null where unbounded. */
    Rational[] slopes() {
        List<BigInteger[]> cs = new ArrayList<>(); // on (v = m, w = c): a·m + b·c <= r
        for (Rational[] p : upper) {
            cs.add(integral(p[0], Rational.of(1), p[1]));
        }
        for (Rational[] p : lower) {
            cs.add(integral(p[0].negate(), Rational.of(-1), p[1].negate()));
        }
        return OfflineLinkOracle.project(cs);
    }

    /**
     * The range of m·t + c over the relaxed set (v = m·t + c, w = m), or, with {@code feasibilityOnly}, any
     * non-null answer when the set is non-empty.
     */
    private Rational[] range(Rational t, boolean feasibilityOnly) {
        List<BigInteger[]> cs = new ArrayList<>();
        for (Rational[] p : upper) { // v + (x - t)·w <= y
            cs.add(integral(Rational.of(1), p[0].subtract(t), p[1]));
        }
        for (Rational[] p : lower) { // -(v + (x - t)·w) <= -y
            cs.add(integral(Rational.of(-1), t.subtract(p[0]), p[1].negate()));
        }
        Rational[] r = OfflineLinkOracle.project(cs);
        if (r == null && !feasibilityOnly) {
            throw new IllegalStateException("the relaxed constraints admit no line");
        }
        return r;
    }

    /** a·v + b·w <= r scaled by the positive common denominator: the same half-plane, in integers. */
    private static BigInteger[] integral(Rational a, Rational b, Rational r) {
        BigInteger d = a.denominator().multiply(b.denominator()).multiply(r.denominator());
        return new BigInteger[] {scaled(a, d), scaled(b, d), scaled(r, d)};
    }

    private static BigInteger scaled(Rational q, BigInteger d) {
        return q.numerator().multiply(d).divide(q.denominator());
    }
}
