package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The clock model the bounds rest on, checked exactly ({@link CurvedLinkOracle}, {@link CurvedClock}): when the
 * relative frequency of two clocks changes by at most ρ′ per unit of time, the relaxed constraints always admit a
 * line, and the true relation lies inside the bounds at every time — inside the points' span, before it and after
 * it — whether each point is relaxed by its own allowance or all by the widest; the bounds carried past the data
 * by the slope range and ρ′(W·d/2 + d²/2) hold too. Without the allowance they do not. With frequency steps of at
 * most κ in all within any τ, the same holds with the curvature ρ′ + 2κ/τ + 2κ/W over points spanning W, and the
 * bounds carried with the slope range widened by that curvature's turn and κ, and the curvature ρ′ + κ/τ; without
 * the steps' share a stepping relation escapes them. Under an offset excursion of at most Φ on top of the model the
 * bounds of the points moved outward by Φ more, widened by Φ, hold; with a quarter of the shift they do not.
 */
class ClockModelBoundsTest {

    private static final long WINDOW = 100_000_000_000L; // 100 s of a's clock

    /** A link's messages over [0, WINDOW] of a's clock, some with delays of a few ns, others up to 100 µs. */
    private record Messages(List<long[]> aToB, List<long[]> bToA) {

        static Messages of(CurvedClock g, SplittableRandom r, int count) {
            return of(g::at, r, count);
        }

        static Messages of(LongFunction<Rational> g, SplittableRandom r, int count) {
            List<long[]> up = new ArrayList<>();
            List<long[]> down = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                long x = r.nextLong(WINDOW + 1);
                long delay = r.nextBoolean() ? r.nextLong(4) : r.nextLong(100_000);
                long floor = CurvedClock.floor(g.apply(x));
                if (r.nextBoolean()) {
                    up.add(new long[] {x, floor + 1 + delay}); // received after g(x): above the relation
                } else {
                    down.add(new long[] {x, floor - delay}); // sent before g(x): below it
                }
            }
            return new Messages(up, down);
        }

        /** The same messages with every point moved outward by {@code shift}: a→b up, b→a down. */
        Messages shifted(long shift) {
            return new Messages(aToB.stream().map(p -> new long[] {p[0], p[1] + shift}).toList(),
                    bToA.stream().map(p -> new long[] {p[0], p[1] - shift}).toList());
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
            assertHolds(g, new CurvedLinkOracle(m.aToB(), m.bToA(), rho, uniform), r);
        }
    }

    /** The relaxed constraints admit the chord, and the truth lies in the bounds at 8 times from −W to 2W. */
    private static void assertHolds(CurvedClock g, CurvedLinkOracle link, SplittableRandom r) {
        assertHolds(g::at, link, Rational.of(0), r);
    }

    /** The same for the truth g and the bounds widened by {@code widen} on each side. */
    private static void assertHolds(LongFunction<Rational> g, CurvedLinkOracle link, Rational widen,
            SplittableRandom r) {
        assertTrue(link.feasible(), "the chord satisfies the relaxed constraints");
        for (int k = 0; k < 8; k++) {
            long t = r.nextLong(-WINDOW, 2 * WINDOW + 1);
            Rational truth = g.apply(t);
            Rational up = link.upperAt(t);
            Rational down = link.lowerAt(t);
            assertTrue(up == null || truth.compareTo(up.add(widen)) <= 0, () -> "above at " + t);
            assertTrue(down == null || truth.compareTo(down.subtract(widen)) >= 0, () -> "below at " + t);
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

    /**
     * Under an offset excursion of at most Φ on top of the model — the relation g = h + e, h bending within ρ′, |e| ≤
     * Φ (docs/LINK-CORE.md, "Offset excursions") — every point moved outward by Φ more keeps h's chord feasible, and
     * the bounds widened by Φ on each side hold g at any time, before, within and after the points' span.
     */
    @Property(tries = 60)
    void underAnExcursionPointsShiftedByItAndBoundsWidenedByItHold(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 40) int count) {
        SplittableRandom r = new SplittableRandom(seed);
        Rational rho = rho(r);
        CurvedClock h = CurvedClock.random(r, 0, WINDOW, rho);
        long phi = r.nextLong(1, 100_001);
        Excursion e = Excursion.random(r, -WINDOW, 2 * WINDOW, phi);
        LongFunction<Rational> g = x -> h.at(x).add(e.at(x));
        Messages m = Messages.of(g, r, count);
        if (m.aToB().isEmpty() || m.bToA().isEmpty()) {
            return;
        }
        Messages shifted = m.shifted(phi);
        assertHolds(g, new CurvedLinkOracle(shifted.aToB(), shifted.bToA(), rho, false), Rational.of(phi), r);
    }

    /**
     * The control for excursions: relations within the model plus an excursion of 50 µs, points moved outward by a
     * quarter of it only — some leave no line, or escape the bounds widened by it.
     */
    @Test
    void withTooSmallAShiftAnExcursionEscapes() {
        int escaped = 0;
        for (long seed = 0; seed < 50; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            CurvedClock h = CurvedClock.random(r, 0, WINDOW, Rational.of(20, 1_000_000_000_000_000_000L));
            long phi = 50_000;
            Excursion e = Excursion.random(r, -WINDOW, 2 * WINDOW, phi);
            LongFunction<Rational> g = x -> h.at(x).add(e.at(x));
            Messages quarter = Messages.of(g, r, 40).shifted(phi / 4);
            CurvedLinkOracle link = new CurvedLinkOracle(quarter.aToB(), quarter.bToA(),
                    Rational.of(20, 1_000_000_000_000_000_000L), false);
            boolean escapes = !link.feasible();
            for (long t = -WINDOW; t <= 2 * WINDOW && !escapes; t += WINDOW / 10) {
                Rational up = link.upperAt(t);
                Rational down = link.lowerAt(t);
                Rational truth = g.apply(t);
                escapes = up != null && truth.compareTo(up.add(Rational.of(phi / 4))) > 0
                        || down != null && truth.compareTo(down.subtract(Rational.of(phi / 4))) < 0;
            }
            escaped += escapes ? 1 : 0;
        }
        assertTrue(escaped > 0, "no relation escaped a shift of a quarter of its excursion");
    }

    /** κ up to 2 ppm as a fraction; τ from 1 s to 2 min. */
    private static Rational kappa(SplittableRandom r) {
        return Rational.of(r.nextLong(1, 2001), 1_000_000_000L);
    }

    /** ρ′ + 2κ/τ + 2κ/W: the curvature points spanning W are relaxed by under frequency steps. */
    private static Rational withSteps(Rational rho, Rational kappa, long tau, long span) {
        return rho.add(kappa.multiply(Rational.of(2)).multiply(Rational.of(1, tau)))
                .add(kappa.multiply(Rational.of(2)).multiply(Rational.of(1, span)));
    }

    private static long span(Messages m) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (List<long[]> side : List.of(m.aToB(), m.bToA())) {
            for (long[] p : side) {
                lo = Math.min(lo, p[0]);
                hi = Math.max(hi, p[0]);
            }
        }
        return Math.max(1, hi - lo);
    }

    @Property(tries = 60)
    void underFrequencyStepsTheTruthLiesInsideTheBoundsOfTheCurvatureTheyAdd(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 40) int count) {
        SplittableRandom r = new SplittableRandom(seed);
        Rational rho = rho(r);
        Rational kappa = kappa(r);
        long tau = r.nextLong(1_000_000_000L, 120_000_000_001L);
        // steps go on after the messages' span, into the times the bounds are carried to
        CurvedClock g = CurvedClock.random(r, 0, 3 * WINDOW, rho, kappa, tau);
        Messages m = Messages.of(g, r, count);
        if (m.aToB().isEmpty() || m.bToA().isEmpty()) {
            return;
        }
        Rational curvature = withSteps(rho, kappa, tau, span(m));
        CurvedLinkOracle link = new CurvedLinkOracle(m.aToB(), m.bToA(), curvature, false);
        assertHolds(g, link, r);
        // carried from the end: slope range widened by the window's turn, then ρ′ + κ/τ
        Rational[] slopes = link.slopes();
        long v = link.end();
        Rational w = Rational.of(v - link.start());
        Rational turn = curvature.multiply(w).multiply(Rational.of(1, 2));
        Rational carried = rho.add(kappa.multiply(Rational.of(1, tau)));
        Rational upEnd = link.upperAt(v);
        Rational downEnd = link.lowerAt(v);
        for (int k = 0; k < 8; k++) {
            Rational d = Rational.of(r.nextLong(0, 2 * WINDOW));
            Rational grown = turn.multiply(d).add(carried.multiply(d).multiply(d).multiply(Rational.of(1, 2)));
            Rational truth = g.at(v + d.numerator().longValueExact());
            if (upEnd != null && slopes[1] != null) {
                assertTrue(truth.compareTo(upEnd.add(slopes[1].multiply(d)).add(grown)) <= 0, "above, " + d + " on");
            }
            if (downEnd != null && slopes[0] != null) {
                assertTrue(truth.compareTo(downEnd.add(slopes[0].multiply(d)).subtract(grown)) >= 0,
                        "below, " + d + " on");
            }
        }
    }

    /**
     * The control for steps: a slope step of κ = 1 ppm halfway through 100 s, points exactly on the relation at both
     * ends: with the curvature alone (1 ppb/s) the bound 100 s on misses the truth, with the steps' share it holds.
     */
    @Test
    void withoutTheStepsShareASteppingRelationEscapesTheBounds() {
        Rational rho = Rational.of(1, 1_000_000_000_000_000_000L);
        Rational kappa = Rational.of(1, 1_000_000);
        long half = WINDOW / 2;
        List<long[]> ends = new ArrayList<>();
        ends.add(new long[] {0, 0});
        ends.add(new long[] {WINDOW, WINDOW + kappa.multiply(Rational.of(half)).numerator().longValueExact()});
        long t = 2 * WINDOW;
        Rational truth = Rational.of(t).add(kappa.multiply(Rational.of(t - half)));
        CurvedLinkOracle model = new CurvedLinkOracle(ends, ends, rho, false);
        assertTrue(truth.compareTo(model.upperAt(t)) > 0, "the curvature alone misses the step");
        CurvedLinkOracle steps = new CurvedLinkOracle(ends, ends, withSteps(rho, kappa, half, WINDOW), false);
        assertTrue(truth.compareTo(steps.upperAt(t)) <= 0 && truth.compareTo(steps.lowerAt(t)) >= 0);
    }

    /**
     * Carried past the data under steps of +κ every τ from the end on (1 ppm every 100 s, the points exactly on the
     * relation at both ends of 100 s): 10 minutes on the window's turn alone misses the truth, the curvature ρ′ + κ/τ
     * on top of it holds it.
     */
    @Test
    void boundsCarriedPastTheDataNeedTheStepsCurvature() {
        Rational rho = Rational.of(1, 1_000_000_000_000_000_000L);
        Rational kappa = Rational.of(1, 1_000_000);
        long tau = WINDOW;
        List<long[]> ends = List.of(new long[] {0, 0}, new long[] {WINDOW, WINDOW});
        Rational curvature = withSteps(rho, kappa, tau, WINDOW);
        CurvedLinkOracle link = new CurvedLinkOracle(ends, ends, curvature, false);
        long d = 6 * tau;
        Rational truth = Rational.of(WINDOW + d);
        for (long k = 0; k * tau < d; k++) {
            truth = truth.add(kappa.multiply(Rational.of(d - k * tau)));
        }
        Rational dd = Rational.of(d);
        Rational turned = link.upperAt(WINDOW).add(link.slopes()[1].multiply(dd))
                .add(curvature.multiply(Rational.of(WINDOW / 2)).multiply(dd));
        Rational half = dd.multiply(dd).multiply(Rational.of(1, 2));
        assertTrue(truth.compareTo(turned.add(rho.multiply(half))) > 0, "ρ′ alone misses the steps to come");
        assertTrue(truth.compareTo(turned.add(rho.add(kappa.multiply(Rational.of(1, tau))).multiply(half))) <= 0);
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
