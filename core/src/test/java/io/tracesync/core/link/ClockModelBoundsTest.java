package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The clock model the bounds rest on, checked exactly ({@link CurvedLinkOracle}, {@link CurvedClock}): when the
 * relative frequency of two clocks changes by at most ρ′ per unit of time, the relaxed constraints always admit a
 * line, and the true relation lies inside the bounds at every time — inside the points' span, before it and after
 * it — whether each point is relaxed by its own allowance or all by the widest; the bounds carried past the data
 * by the slope range and ρ′(W·d/2 + d²/2) hold too. Without the allowance they do not.
 */
class ClockModelBoundsTest {

    private static final long WINDOW = 100_000_000_000L; // 100 s of a's clock

    /** A link's messages over [0, WINDOW] of a's clock, some with delays of a few ns, others up to 100 µs. */
    private record Messages(List<long[]> aToB, List<long[]> bToA) {

        static Messages of(CurvedClock g, SplittableRandom r, int count) {
            List<long[]> up = new ArrayList<>();
            List<long[]> down = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                long x = r.nextLong(WINDOW + 1);
                long delay = r.nextBoolean() ? r.nextLong(4) : r.nextLong(100_000);
                if (r.nextBoolean()) {
                    up.add(new long[] {x, g.floorAt(x) + 1 + delay}); // received after g(x): above the relation
                } else {
                    down.add(new long[] {x, g.floorAt(x) - delay}); // sent before g(x): below it
                }
            }
            return new Messages(up, down);
        }
    }

    /** ρ′ between 0 and 10^-16 per ns (0.1 ppm per s: five times a strong air-conditioning cycle). */
    private static Rational rho(SplittableRandom r) {
        return Rational.of(r.nextLong(0, 101), 1_000_000_000_000_000_000L);
    }

    @Property(tries = 60)
    void theTrueRelationLiesInsideTheBoundsWheneverTheClocksFollowTheModel(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 40) int count) {
        SplittableRandom r = new SplittableRandom(seed);
        Rational rho = rho(r);
        CurvedClock g = CurvedClock.random(r, 0, WINDOW, rho);
        Messages m = Messages.of(g, r, count);
        if (m.aToB().isEmpty() || m.bToA().isEmpty()) {
            return;
        }
        for (boolean uniform : new boolean[] {false, true}) {
            CurvedLinkOracle link = new CurvedLinkOracle(m.aToB(), m.bToA(), rho, uniform);
            assertTrue(link.feasible(), "the chord satisfies the relaxed constraints");
            for (int k = 0; k < 8; k++) {
                long t = r.nextLong(-WINDOW, 2 * WINDOW + 1);
                Rational truth = g.at(t);
                Rational up = link.upperAt(t);
                Rational down = link.lowerAt(t);
                assertTrue(up == null || truth.compareTo(up) <= 0, () -> "above at " + t + (uniform ? " (uniform)" : ""));
                assertTrue(down == null || truth.compareTo(down) >= 0, () -> "below at " + t);
            }
        }
    }

    @Property(tries = 60)
    void boundsCarriedPastTheDataBySlopeRangeAndCurvatureHold(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Rational rho = rho(r);
        CurvedClock g = CurvedClock.random(r, 0, WINDOW, rho);
        Messages m = Messages.of(g, r, 30);
        if (m.aToB().isEmpty() || m.bToA().isEmpty()) {
            return;
        }
        CurvedLinkOracle link = new CurvedLinkOracle(m.aToB(), m.bToA(), rho, false);
        Rational[] slopes = link.slopes();
        long v = link.end();
        Rational w = Rational.of(v - link.start());
        Rational up = link.upperAt(v);
        Rational down = link.lowerAt(v);
        for (int k = 0; k < 8; k++) {
            long d = r.nextLong(0, 2 * WINDOW);
            Rational dd = Rational.of(d);
            Rational bend = rho.multiply(w.multiply(dd).add(dd.multiply(dd))).multiply(Rational.of(1, 2));
            Rational truth = g.at(v + d);
            if (up != null && slopes[1] != null) {
                assertTrue(truth.compareTo(up.add(slopes[1].multiply(dd)).add(bend)) <= 0, "above, " + d + " ns on");
            }
            if (down != null && slopes[0] != null) {
                assertTrue(truth.compareTo(down.add(slopes[0].multiply(dd)).subtract(bend)) >= 0,
                        "below, " + d + " ns on");
            }
        }
    }

    /** The control: the same bounds without the allowance (a linear model) miss a bending relation's truth. */
    @Test
    void withoutTheAllowanceABendingRelationEscapesTheBounds() {
        Rational rho = Rational.of(1, 10_000_000_000_000_000L); // 10^-16 per ns
        Rational half = rho.multiply(Rational.of(1, 2));
        // g(x) = x + ρ′x²/2, bending up; messages with no delay at 0, W/2 and W, both ways
        List<long[]> up = new ArrayList<>();
        List<long[]> down = new ArrayList<>();
        for (long x : new long[] {0, WINDOW / 2, WINDOW}) {
            long g = Rational.of(x).add(half.multiply(Rational.of(x)).multiply(Rational.of(x))).numerator()
                    .longValueExact();
            up.add(new long[] {x, g});
            down.add(new long[] {x, g});
        }
        long t = 2 * WINDOW;
        Rational truth = Rational.of(t).add(half.multiply(Rational.of(t)).multiply(Rational.of(t)));
        CurvedLinkOracle linear = new CurvedLinkOracle(up, down, Rational.of(0), false);
        assertFalse(linear.feasible(), "no line passes through three points of a parabola");
        List<long[]> ends = List.of(up.get(0), up.get(2));
        List<long[]> middle = List.of(new long[] {WINDOW / 2, down.get(1)[1] - 250_000});
        CurvedLinkOracle loose = new CurvedLinkOracle(ends, middle, Rational.of(0), false);
        assertTrue(loose.feasible());
        assertTrue(truth.compareTo(loose.upperAt(t)) > 0, "the linear bound misses the truth 100 s on");
        CurvedLinkOracle model = new CurvedLinkOracle(ends, middle, rho, false);
        assertTrue(truth.compareTo(model.upperAt(t)) <= 0 && truth.compareTo(model.lowerAt(t)) >= 0);
    }
}
