package io.tracesync.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.CurvedClock;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class NodeHistoryTest {

    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    /** The default clock model, 20 ppb/s, per ns. */
    private static final double RHO = 20e-9 / SECOND;

    /**
     * A valid version of g at anchor a: an estimate off by up to 50 µs, a slope off by up to 5 ppm, bounds and slope
     * range that contain the truth with a random margin, and the model's curvature.
     */
    private static FactorVersion version(CurvedClock g, long number, String reference, long a, double rho,
            SplittableRandom r) {
        return version(g, number, reference, a, rho, 0, 0, 20_000_000, r);
    }

    /**
     * The same under frequency steps of at most {@code step} within any τ: the curvature {@code curvature} (ρ′ + κ/τ)
     * and the slope range widened by κ besides, as a window's turn covers the steps of the next τ; bounds holding the
     * truth with a margin below {@code marginPs}.
     */
    private static FactorVersion version(CurvedClock g, long number, String reference, long a, double curvature,
            double step, long tau, long marginPs, SplittableRandom r) {
        double slope = g.slopeAt(a).toBigDecimal(Rational.PRINT).doubleValue() + (r.nextDouble() - 0.5) * 1e-5;
        BigDecimal truth = g.at(a).toBigDecimal(Rational.PRINT);
        DoubleDouble estimate = DoubleDouble.of(truth.add(BigDecimal.valueOf(r.nextLong(-50_000, 50_001))));
        ClockMap map = ClockMap.through(a, estimate, DoubleDouble.of(slope));
        BigDecimal mapped = Conversion.of(new Factor(map, 0, 0), a).referenceNs();
        long up = picosUp(truth.subtract(mapped)) + r.nextLong(0, marginPs);
        long down = picosUp(mapped.subtract(truth)) + r.nextLong(0, marginPs);
        Rational trueSlope = g.slopeAt(a);
        Rational ours = exact(slope);
        double above = Math.max(0, Math.nextUp(trueSlope.subtract(ours).toBigDecimal(Rational.PRINT).doubleValue()))
                + r.nextDouble() * 2e-6;
        double below = Math.max(0, Math.nextUp(ours.subtract(trueSlope).toBigDecimal(Rational.PRINT).doubleValue()))
                + r.nextDouble() * 2e-6 + step;
        return new FactorVersion(number, reference, new Factor(map, up, down, a, above + step, below, curvature, step),
                number * 1000);
    }

    /** f with its bounds holding at another anchor. */
    private static Factor anchored(Factor f, long anchorNs) {
        return new Factor(f.toReference(), f.upPs(), f.downPs(), anchorNs, f.growthAbove(), f.growthBelow(),
                f.curvature());
    }

    /** A double's exact value. */
    private static Rational exact(double d) {
        BigDecimal b = new BigDecimal(d);
        return b.scale() <= 0 ? Rational.of(b.toBigIntegerExact(), BigInteger.ONE)
                : Rational.of(b.unscaledValue(), BigInteger.TEN.pow(b.scale()));
    }

    private static long picosUp(BigDecimal ns) {
        return Math.max(0, ns.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact());
    }

    private static boolean contains(Long lower, Long upper, Rational truth) {
        return lower != null && upper != null && Rational.of(lower).compareTo(truth) <= 0
                && truth.compareTo(Rational.of(upper)) <= 0;
    }

    private static long width(Long lower, Long upper) {
        return upper - lower;
    }

    /**
     * Versions 1–120 s apart on a relation bending up to the model: every answer, at any time within, before and
     * after them, contains the truth, and is never wider than the version in force carried there (the live answer;
     * across a change of reference, the nearer of the two around t) nor than the next version carried back.
     */
    @Property(tries = 200)
    void everyAnswerHoldsAndIsNeverWiderThanLive(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double rho = r.nextBoolean() ? RHO : 0;
        CurvedClock g = CurvedClock.random(r, T0 - 3600 * SECOND, T0 + 7200 * SECOND, exact(rho));
        NodeHistory history = new NodeHistory(1000);
        List<FactorVersion> added = new ArrayList<>();
        long a = T0;
        for (int k = 1; k <= 20; k++) {
            String reference = r.nextInt(10) == 0 ? "other" : "ref";
            FactorVersion v = version(g, k, reference, a, rho, r);
            assertTrue(history.add(v));
            added.add(v);
            a += r.nextLong(SECOND, 120 * SECOND);
        }
        for (int i = 0; i < 200; i++) {
            long t = T0 + r.nextLong(-600 * SECOND, a - T0 + 600 * SECOND);
            Rational truth = g.at(t);
            HistoricConversion c = history.convert(t);
            FactorVersion inForce = history.inForce(t);
            FactorVersion after = history.next(t);
            FactorVersion answering = inForce == null ? added.get(0) : inForce;
            if (inForce != null && after != null && !inForce.reference().equals(after.reference())
                    && !inForce.own() && t - inForce.anchorNs() > after.anchorNs() - t) {
                answering = after;
            }
            assertSame(answering, c.version(), "across a change of reference the nearer version answers");
            Conversion live = Conversion.of(answering.factor(), t);
            assertTrue(contains(live.lowerNs(), live.upperNs(), truth), "a generated version does not hold");
            assertTrue(contains(c.lowerNs(), c.upperNs(), truth), c + " misses " + truth.toDecimalString());
            assertTrue(width(c.lowerNs(), c.upperNs()) <= width(live.lowerNs(), live.upperNs()), c + " vs " + live);
            BigDecimal estimate = c.referenceNs();
            assertTrue(estimate.compareTo(BigDecimal.valueOf(c.lowerNs())) >= 0
                    && estimate.compareTo(BigDecimal.valueOf(c.upperNs())) <= 0, "estimate outside: " + c);
            if (c.next() != null) {
                assertEquals(HistoricConversion.Basis.INTERPOLATED, c.basis());
                Conversion back = Conversion.of(c.next().factor(), t);
                assertTrue(width(c.lowerNs(), c.upperNs()) <= width(back.lowerNs(), back.upperNs()));
                assertTrue(c.version().anchorNs() <= t && t < c.next().anchorNs());
            }
        }
    }

    /**
     * Under frequency steps (1 ppm in all within any 64 s, on top of 20 ppb/s), versions 1–120 s apart whose bounds
     * hold the truth within 2 µs: every answer holds it — the chord between two anchors widened by the steps' share
     * κ(t − a)(b − t)/(b − a) besides the curvature's.
     */
    @Property(tries = 200)
    void underFrequencyStepsEveryAnswerHolds(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double step = 1e-6;
        long tau = 64 * SECOND;
        double curvature = RHO + step / tau;
        CurvedClock g = CurvedClock.random(r, T0 - 3600 * SECOND, T0 + 7200 * SECOND, exact(RHO), exact(step), tau);
        NodeHistory history = new NodeHistory(1000);
        long a = T0;
        for (int k = 1; k <= 20; k++) {
            assertTrue(history.add(version(g, k, "ref", a, curvature, step, tau, 2_000_000, r)));
            a += r.nextLong(SECOND, 120 * SECOND);
        }
        for (int i = 0; i < 200; i++) {
            long t = T0 + r.nextLong(-600 * SECOND, a - T0 + 600 * SECOND);
            HistoricConversion c = history.convert(t);
            assertTrue(contains(c.lowerNs(), c.upperNs(), g.at(t)), c + " misses " + g.at(t).toDecimalString());
        }
    }

    /**
     * Between two anchors on linear clocks the chord's interval is the anchors' intervals interpolated: it does not
     * grow with the slope range, where each version carried there does.
     */
    @Test
    void betweenTwoAnchorsTheIntervalIsTheChordOfTheirs() {
        Factor before = new Factor(ClockMap.IDENTITY, 50_000, 50_000, 0, 5e-6, 5e-6);
        Factor after = new Factor(ClockMap.IDENTITY, 50_000, 50_000, 10 * SECOND, 5e-6, 5e-6);
        NodeHistory h = new NodeHistory(10);
        h.add(new FactorVersion(1, "ref", before, 0));
        h.add(new FactorVersion(2, "ref", after, 0));
        HistoricConversion mid = h.convert(5 * SECOND);
        assertEquals(HistoricConversion.Basis.INTERPOLATED, mid.basis());
        assertEquals(5 * SECOND - 50, mid.lowerNs());
        assertEquals(5 * SECOND + 50, mid.upperNs());
        assertEquals(5 * SECOND, mid.nearestNs());
        assertTrue(Conversion.of(before, 5 * SECOND).upperNs() >= 5 * SECOND + 50 + 25_000, "live: grown 25 µs");
        assertEquals(5 * SECOND, mid.fromDataNs());
        // with the model's curvature the chord widens by ρ′(t − a)(b − t)/2 = 0.25 µs at the middle
        NodeHistory bent = new NodeHistory(10);
        bent.add(new FactorVersion(1, "ref", new Factor(ClockMap.IDENTITY, 50_000, 50_000, 0, 5e-6, 5e-6, RHO), 0));
        bent.add(new FactorVersion(2, "ref", new Factor(ClockMap.IDENTITY, 50_000, 50_000, 10 * SECOND, 5e-6, 5e-6,
                RHO), 0));
        HistoricConversion bentMid = bent.convert(5 * SECOND);
        long upper = bentMid.upperNs() - (5 * SECOND + 50 + 250);
        long lower = 5 * SECOND - 50 - 250 - bentMid.lowerNs();
        assertTrue(upper >= 0 && upper <= 1 && lower >= 0 && lower <= 1, bentMid.toString());
    }

    /**
     * Across a change of reference the nearer version answers, but a node's own identity — published once, when it
     * became its own reference, and exact at every time — answers up to the version that gave it another reference.
     */
    @Test
    void aReferencesOwnIdentityHoldsUntilItGetsAnotherReference() {
        NodeHistory h = new NodeHistory(10);
        h.add(new FactorVersion(1, "web", Factor.REFERENCE, 0));
        Factor toApi = new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(-21_000_000)), 50_000, 50_000,
                20 * SECOND, 5e-6, 5e-6);
        h.add(new FactorVersion(2, "api", toApi, 0));
        HistoricConversion early = h.convert(5 * SECOND);
        assertEquals("web", early.version().reference());
        assertEquals(5 * SECOND, early.lowerNs());
        assertEquals(5 * SECOND, early.upperNs());
        HistoricConversion late = h.convert(19 * SECOND);
        assertEquals("web", late.version().reference(), "the identity is exact up to the change");
        assertEquals(2, h.convert(20 * SECOND).version().number());
        // another node's version of the same emissions: the nearer one
        NodeHistory other = new NodeHistory(10);
        other.add(new FactorVersion(1, "web", anchored(toApi, 10 * SECOND), 0));
        other.add(new FactorVersion(2, "api", toApi, 0));
        assertEquals("web", other.convert(14 * SECOND).version().reference());
        assertEquals("api", other.convert(16 * SECOND).version().reference());
        // a span from 14 s to 16 s keeps one clock: its end converted to web's too, with web's version carried
        HistoricConversion end = other.convert(16 * SECOND, null, "web");
        assertEquals(1, end.version().number());
        assertEquals(Conversion.of(anchored(toApi, 10 * SECOND), 16 * SECOND).upperNs(), end.upperNs());
        assertEquals(2, other.convert(14 * SECOND, null, "api").version().number());
        assertNull(other.convert(14 * SECOND, null, "db"), "no version of that reference");
        FactorVersion newest = new FactorVersion(3, "web", anchored(toApi, 30 * SECOND), 0);
        HistoricConversion between = other.convert(20 * SECOND, newest, "web");
        assertEquals(HistoricConversion.Basis.INTERPOLATED, between.basis(), "versions 1 and 3, around version 2");
        assertSame(newest, between.next());
    }

    @Test
    void pastTheNewestOrBeforeTheOldestOneVersionIsCarriedAsLive() {
        NodeHistory h = new NodeHistory(2);
        assertNull(h.convert(0));
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 1_000, 100, 1e-6, 1e-6);
        h.add(new FactorVersion(1, "ref", f, 0));
        HistoricConversion after = h.convert(1_000_000);
        assertEquals(HistoricConversion.Basis.EXTRAPOLATED, after.basis());
        assertEquals(Conversion.of(f, 1_000_000).upperNs(), after.upperNs());
        assertFalse(after.truncated());
        h.add(new FactorVersion(2, "ref", anchored(f, 200), 0));
        h.add(new FactorVersion(3, "ref", anchored(f, 300), 0));
        HistoricConversion before = h.convert(150);
        assertTrue(before.truncated(), "version 1 was dropped for the capacity");
        assertTrue(before.localNs() < before.version().anchorNs());
        assertEquals(2, before.version().number());
    }

    @Test
    void aVersionAnchoredAtOrBeforeHeldOnesSupersedesThemAndOldNumbersAreRefused() {
        NodeHistory h = new NodeHistory(10);
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 1_000, 0, 0, 0);
        h.add(new FactorVersion(1, "ref", anchored(f, 100), 0));
        h.add(new FactorVersion(2, "ref", anchored(f, 200), 0));
        h.add(new FactorVersion(3, "ref", anchored(f, 300), 0));
        assertTrue(h.add(new FactorVersion(4, "ref", anchored(f, 200), 0)));
        assertEquals(2, h.size());
        assertEquals(4, h.inForce(250).number());
        assertFalse(h.add(new FactorVersion(4, "ref", anchored(f, 900), 0)));
        assertFalse(h.add(new FactorVersion(5, "ref", Factor.REFERENCE, 0)), "timeless after versions");
        Factor olderWriters = new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(7)), 0, 0);
        assertTrue(h.add(new FactorVersion(6, "ref", olderWriters, 0)), "exact but not the identity: a version");
        assertEquals(1, h.size(), "anchored at 0 (a writer without anchors): it supersedes the others");
        assertFalse(h.add(new FactorVersion(2, "ref", anchored(f, 900), 0)));
        assertSame(h.newest(), h.inForce(Long.MAX_VALUE));
    }

    /**
     * Dropped versions leave no hole: once versions were dropped, one older than those held is refused even where a
     * superseded version freed a place (a reader of the history topic then of the latest-value topic).
     */
    @Test
    void aVersionOlderThanThoseHeldIsRefusedOnceOlderOnesWereDropped() {
        NodeHistory h = new NodeHistory(3);
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 1_000, 0, 0, 0);
        for (int k = 2; k <= 5; k++) {
            h.add(new FactorVersion(k, "ref", anchored(f, k * 100), 0));
        }
        assertTrue(h.add(new FactorVersion(6, "ref", anchored(f, 450), 0)), "supersedes 5");
        assertEquals(List.of(3L, 4L, 6L), numbers(h));
        assertTrue(h.add(new FactorVersion(7, "ref", anchored(f, 350), 0)), "supersedes 4 and 6");
        assertEquals(List.of(3L, 7L), numbers(h));
        assertFalse(h.add(new FactorVersion(1, "ref", anchored(f, 100), 0)), "older than 2, which was dropped");
        assertFalse(h.add(new FactorVersion(2, "ref", anchored(f, 200), 0)));
        assertEquals(List.of(3L, 7L), numbers(h));

        NodeHistory whole = new NodeHistory(3);
        whole.add(new FactorVersion(3, "ref", anchored(f, 300), 0));
        assertTrue(whole.add(new FactorVersion(2, "ref", anchored(f, 200), 0)), "nothing dropped: room is room");
        assertEquals(List.of(2L, 3L), numbers(whole));
    }

    private static List<Long> numbers(NodeHistory h) {
        return Arrays.stream(h.versions()).map(FactorVersion::number).toList();
    }

    /**
     * Versions added in any order, with copies, give the history that adding them in number order gives (within
     * the capacity): a reader of the latest-value topic and of the history topic gets the publication order's
     * answer.
     */
    @Property(tries = 500)
    void anyOrderOfAdditionGivesTheHistoryOfPublicationOrder(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 1_000, 0, 0, 0);
        List<FactorVersion> published = new ArrayList<>();
        long anchor = 0;
        for (int k = 1; k <= 1 + r.nextInt(30); k++) {
            anchor += r.nextInt(4) == 0 ? -r.nextLong(0, 300) : r.nextLong(0, 300);
            published.add(new FactorVersion(k, "ref", anchored(f, anchor), k));
        }
        NodeHistory inOrder = new NodeHistory(1000);
        published.forEach(inOrder::add);
        List<FactorVersion> shuffled = new ArrayList<>(published);
        for (int i = 0; i < 5; i++) {
            shuffled.add(published.get(r.nextInt(published.size())));
        }
        java.util.Collections.shuffle(shuffled, new java.util.Random(seed));
        NodeHistory anyOrder = new NodeHistory(1000);
        shuffled.forEach(anyOrder::add);
        List<FactorVersion> expected = List.of(inOrder.versions());
        assertEquals(expected, List.of(anyOrder.versions()));
        for (int i = 1; i < expected.size(); i++) {
            assertTrue(expected.get(i).anchorNs() > expected.get(i - 1).anchorNs()
                    && expected.get(i).number() > expected.get(i - 1).number());
        }
    }

    @Test
    void versionsExpireOldestFirstButTheNewestStays() {
        NodeHistory h = new NodeHistory(10);
        Factor f = new Factor(ClockMap.IDENTITY, 1_000, 1_000, 0, 0, 0);
        for (int k = 1; k <= 5; k++) {
            h.add(new FactorVersion(k, "ref", anchored(f, k * 100), k * 1000));
        }
        h.expireBefore(3000);
        assertEquals(3, h.size());
        assertEquals(3, h.oldest().number());
        h.expireBefore(Long.MAX_VALUE);
        assertEquals(1, h.size());
        assertEquals(5, h.newest().number());
        assertTrue(h.truncated());
    }

    @Test
    void versionsWhoseIntervalsExcludeEachOtherAreAContradictionAnsweredAsLive() {
        NodeHistory h = new NodeHistory(10);
        h.add(new FactorVersion(1, "ref", new Factor(ClockMap.IDENTITY, 1_000, 1_000, 0, 0, 0), 0));
        // a step of 1 ms between the two
        h.add(new FactorVersion(2, "ref", new Factor(ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(1_000_000)),
                1_000, 1_000, SECOND, 0, 0), 0));
        HistoricConversion c = h.convert(SECOND / 2);
        assertEquals(HistoricConversion.Basis.CONTRADICTED, c.basis());
        assertEquals(SECOND / 2 - 1, c.lowerNs());
        assertEquals(1, c.version().number());
    }

    /**
     * A step of 1 ms at 4 s, which a link placed there (the later version's steady-from): times before it convert
     * with the version before, times after it with the version after, each holding the truth; the chord of the two
     * would hold neither side.
     */
    @Test
    void aStepBetweenTwoVersionsIsAnsweredByTheSideTheTimeLiesOn() {
        long step = 1_000_000;
        FactorVersion before = new FactorVersion(1, "ref", new Factor(ClockMap.IDENTITY, 50_000, 50_000, 0, 5e-6,
                5e-6, RHO), 0);
        FactorVersion after = new FactorVersion(2, "ref", new Factor(ClockMap.of(DoubleDouble.ONE,
                DoubleDouble.of(step)), 50_000, 50_000, 10 * SECOND, 5e-6, 5e-6, RHO), 0, 4 * SECOND);
        NodeHistory h = new NodeHistory(10);
        h.add(before);
        h.add(after);
        HistoricConversion early = h.convert(2 * SECOND);
        HistoricConversion late = h.convert(6 * SECOND);
        assertSame(before, early.version());
        assertSame(after, late.version());
        assertEquals(HistoricConversion.Basis.CONTRADICTED, late.basis());
        assertTrue(early.lowerNs() <= 2 * SECOND && 2 * SECOND <= early.upperNs(), early.toString());
        assertTrue(late.lowerNs() <= 6 * SECOND + step && 6 * SECOND + step <= late.upperNs(), late.toString());
        NodeHistory unknown = new NodeHistory(10);
        unknown.add(before);
        unknown.add(new FactorVersion(2, "ref", after.factor(), 0));
        HistoricConversion carried = unknown.convert(6 * SECOND);
        assertTrue(carried.upperNs() < 6 * SECOND + step, "without the restart the version in force answers: "
                + carried);
        assertTrue(new HistoryGate(60 * SECOND).keeps(before, after), "the first version after a restart is kept");
    }
}
