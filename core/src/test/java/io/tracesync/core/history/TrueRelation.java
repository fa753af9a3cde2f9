package io.tracesync.core.history;

import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A node's clock relation to its reference, g(t), bending as much as the clock model allows and no more: the slope
 * is continuous and piecewise linear, turning at a rate of at most ρ′ per ns on every piece, so every second
 * divided difference of g is at most ρ′/2. Exact (rationals); test helper.
 */
final class TrueRelation {

    private final List<long[]> knots = new ArrayList<>();
    private final List<Rational[]> pieces = new ArrayList<>(); // {g at the knot, slope at the knot, slope rate}

    /** A random relation over [from, to]: slope within 1 ± 1e-4, offsets of hours, pieces turning at up to ρ′. */
    static TrueRelation random(SplittableRandom r, long from, long to, double rho) {
        TrueRelation g = new TrueRelation();
        Rational limit = exact(rho);
        Rational value = Rational.of(from + r.nextLong(-7_200_000_000_000L, 7_200_000_000_000L));
        Rational slope = Rational.of(1).add(Rational.of(r.nextLong(-100_000, 100_001), 1_000_000_000));
        long x = from;
        while (x < to) {
            long length = Math.max(1, (to - from) / (1 + r.nextInt(8)));
            long next = x > to - length ? to : x + length;
            Rational rate = switch (r.nextInt(4)) {
                case 0 -> limit;
                case 1 -> limit.negate();
                case 2 -> Rational.of(0);
                default -> limit.multiply(Rational.of(r.nextLong(-1000, 1001), 1000));
            };
            g.knots.add(new long[] {x, next});
            g.pieces.add(new Rational[] {value, slope, rate});
            Rational h = Rational.of(next - x);
            value = value.add(slope.multiply(h)).add(rate.multiply(h).multiply(h).multiply(Rational.of(1, 2)));
            slope = slope.add(rate.multiply(h));
            x = next;
        }
        return g;
    }

    /** A double's exact value. */
    static Rational exact(double d) {
        BigDecimal b = new BigDecimal(d);
        return b.scale() <= 0 ? Rational.of(b.toBigIntegerExact(), BigInteger.ONE)
                : Rational.of(b.unscaledValue(), BigInteger.TEN.pow(b.scale()));
    }

    Rational at(long x) {
        int i = piece(x);
        Rational[] p = pieces.get(i);
        Rational h = Rational.of(x - knots.get(i)[0]);
        return p[0].add(p[1].multiply(h)).add(p[2].multiply(h).multiply(h).multiply(Rational.of(1, 2)));
    }

    Rational slopeAt(long x) {
        int i = piece(x);
        Rational[] p = pieces.get(i);
        return p[1].add(p[2].multiply(Rational.of(x - knots.get(i)[0])));
    }

    private int piece(long x) {
        int i = 0;
        while (i < knots.size() - 1 && x >= knots.get(i)[1]) {
            i++;
        }
        return i;
    }
}
