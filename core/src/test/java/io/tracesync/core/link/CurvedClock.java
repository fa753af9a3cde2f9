package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A clock relation y = g(x) that bends as much as the clock model allows and no more: its slope is piecewise linear,
 * changing at a rate of at most ρ′ per unit of x on every piece, so g is piecewise quadratic and every second divided
 * difference of g is at most ρ′/2 — and, with frequency steps, steps at some knots (a time daemon's updates), each of
 * at most κ and at least τ apart, so that those within any τ add up to at most κ. Exact (rationals); test helper.
 */
public final class CurvedClock {

    private final List<long[]> knots = new ArrayList<>();
    private final List<Rational[]> pieces = new ArrayList<>(); // {g at the knot, slope at the knot, slope rate}

    /**
     * A random relation over [from, to]: slope 1 + drift (within ±1e-4), offset within ±2^40, pieces of random
     * length, each bending at ±ρ′ or some rate in between (to the limit more often than not).
     */
    public static CurvedClock random(SplittableRandom r, long from, long to, Rational rho) {
        return random(r, from, to, rho, Rational.of(0), 1);
    }

    /**
     * The same with slope steps: pieces of τ/2 to 3τ/2, a step of ±κ or some size in between at the start of each
     * piece at least τ after the last step.
     */
    public static CurvedClock random(SplittableRandom r, long from, long to, Rational rho, Rational kappa, long tau) {
        CurvedClock c = new CurvedClock();
        Rational value = Rational.of(r.nextLong(-(1L << 40), 1L << 40));
        Rational slope = Rational.of(1).add(Rational.of(r.nextLong(-100_000, 100_001), 1_000_000_000));
        boolean steps = kappa.signum() > 0;
        long lastStep = Long.MIN_VALUE;
        long x = from;
        while (x < to) {
            if (steps && (lastStep == Long.MIN_VALUE || x - lastStep >= tau)) {
                slope = slope.add(kappa.multiply(switch (r.nextInt(3)) {
                    case 0 -> Rational.of(1);
                    case 1 -> Rational.of(-1);
                    default -> Rational.of(r.nextLong(-1000, 1001), 1000);
                }));
                lastStep = x;
            }
            long length = steps ? Math.max(1, tau / 2 + r.nextLong(tau + 1))
                    : Math.max(1, (to - from) / (1 + r.nextInt(6)));
            long next = x > to - length ? to : x + length;
            Rational rate = switch (r.nextInt(4)) {
                case 0 -> rho;
                case 1 -> rho.negate();
                case 2 -> Rational.of(0);
                default -> rho.multiply(Rational.of(r.nextLong(-1000, 1001), 1000));
            };
            c.knots.add(new long[] {x, next});
            c.pieces.add(new Rational[] {value, slope, rate});
            Rational h = Rational.of(next - x);
            value = value.add(slope.multiply(h)).add(rate.multiply(h).multiply(h).multiply(Rational.of(1, 2)));
            slope = slope.add(rate.multiply(h));
            x = next;
        }
        return c;
    }

    /** g(x), for x anywhere: the first piece extends to the left, the last to the right, as quadratics. */
    public Rational at(long x) {
        int i = 0;
        while (i < knots.size() - 1 && x >= knots.get(i)[1]) {
            i++;
        }
        Rational[] p = pieces.get(i);
        Rational h = Rational.of(x - knots.get(i)[0]);
        return p[0].add(p[1].multiply(h)).add(p[2].multiply(h).multiply(h).multiply(Rational.of(1, 2)));
    }

    /** g′(x), the relation's slope at x. */
    public Rational slopeAt(long x) {
        int i = 0;
        while (i < knots.size() - 1 && x >= knots.get(i)[1]) {
            i++;
        }
        Rational[] p = pieces.get(i);
        return p[1].add(p[2].multiply(Rational.of(x - knots.get(i)[0])));
    }

    /** The greatest integer not above g(x). */
    long floorAt(long x) {
        Rational g = at(x);
        return floor(g);
    }

    /** The greatest integer not above q. */
    static long floor(Rational q) {
        return q.numerator().subtract(q.numerator().mod(q.denominator())).divide(q.denominator()).longValueExact();
    }
}
