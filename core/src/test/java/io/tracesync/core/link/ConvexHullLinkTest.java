package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ConvexHullLinkTest {

    private static final long SECOND = 1_000_000_000L;

    private static PairEffect feed(ConvexHullLink link, long[] p) {
        // Scenario pairs are in link coordinates: a->b is (send_a, recv_b), b->a is (recv_a, send_b).
        return p[0] == 1 ? link.addAtoB(p[1], p[2]) : link.addBtoA(p[2], p[1]);
    }

    @Property(tries = 60)
    void estimateIsTheSameGeometricLineWhenAAndBSwap(@ForAll long seed) {
        ConvexHullLink ab = new ConvexHullLink(LinkOptions.NO_HORIZON);
        ConvexHullLink ba = new ConvexHullLink(LinkOptions.NO_HORIZON);
        for (long[] p : Scenarios.generate(Scenarios.Shape.REALISTIC, seed, 200)) {
            feed(ab, p);
            // Seen from b, the same message swaps roles: a->b becomes b'->a' with the same timestamps.
            if (p[0] == 1) {
                ba.addBtoA(p[1], p[2]);
            } else {
                ba.addAtoB(p[2], p[1]);
            }
        }
        assertEquals(LinkQuality.ACCURATE, ab.quality());
        assertEquals(LinkQuality.ACCURATE, ba.quality());
        ClockMap f = ab.estimate();
        ClockMap g = ba.estimate().inverse();
        BigDecimal slopeDiff = f.slope().subtract(g.slope()).toBigDecimal().abs();
        assertTrue(slopeDiff.compareTo(new BigDecimal("1e-28")) < 0, "slopes differ by " + slopeDiff);
        // Same line: both maps agree at the data's own times to far under a nanosecond.
        long x = ab.latestX();
        BigDecimal yDiff = f.apply(x).subtract(g.apply(x)).toBigDecimal().abs();
        assertTrue(yDiff.compareTo(new BigDecimal("1e-6")) < 0, "values differ by " + yDiff + " ns");
    }

    @Property(tries = 100)
    void estimateLiesInsideTheCorridorAndBoundsAreItsWidth(@ForAll long seed,
                                                          @ForAll @IntRange(min = 2, max = 120) int n) {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON);
        List<long[]> pairs = Scenarios.generate(Scenarios.Shape.REALISTIC, seed, n);
        pairs.forEach(p -> feed(link, p));
        if (link.quality() != LinkQuality.ACCURATE) {
            return;
        }
        Rational accuracy = link.slopeAccuracy();
        assertTrue(accuracy.signum() >= 0);
        for (long[] p : pairs) {
            for (long t : new long[] {p[1], p[1] - 7 * SECOND, p[1] + 3600 * SECOND}) {
                LinkBounds b = link.boundsAt(t);
                assertTrue(b.upNs().signum() >= 0 && b.downNs().signum() >= 0, "negative bound at " + t);
                Rational width = link.windows()[0].older().upperAt(t).subtract(link.windows()[0].older().lowerAt(t));
                BigDecimal sum = b.upNs().add(b.downNs());
                BigDecimal exact = width.toBigDecimal(MathContext.DECIMAL128);
                // Each side is rounded up to the picosecond: the sum exceeds the width by less than 2 ps.
                assertTrue(sum.compareTo(exact) >= 0 && sum.subtract(exact).compareTo(new BigDecimal("0.002")) <= 0,
                        "bounds " + b + " vs corridor width " + exact);
            }
        }
    }

    @Test
    void recoversClockParametersOfAKnownLink() {
        // a's clock runs 40 ppm fast and 1.5 s ahead of b's; delays 50 us + exponential(100 us).
        Random r = new Random(7);
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        double slope = 1 / (1 + 40e-6);
        for (int i = 0; i < 20_000; i++) {
            long t = i * 10_000_000L;
            double delay = 50_000 - 100_000 * Math.log(1 - r.nextDouble());
            long a = 1_500_000_000L + Math.round(t * (1 + 40e-6));
            if (i % 2 == 0) {
                link.addAtoB(a, Math.round(t + delay));
            } else {
                link.addBtoA(t, Math.round(1_500_000_000L + (t + delay) * (1 + 40e-6)));
            }
        }
        assertEquals(LinkQuality.ACCURATE, link.quality());
        ClockMap c = link.estimate();
        assertEquals(slope, c.slope().toBigDecimal().doubleValue(), 1e-8);
        long at = link.latestX();
        double truth = (at - 1_500_000_000L) * slope;
        LinkBounds b = link.boundsAt(at);
        double estimate = c.apply(at).toBigDecimal().doubleValue();
        assertTrue(truth <= estimate + b.upNs().doubleValue() + 1 && truth >= estimate - b.downNs().doubleValue() - 1,
                "truth " + truth + " outside " + estimate + " " + b);
        // Each side of the corridor is about one minimum delay (50 us) wide.
        assertTrue(b.widest().doubleValue() < 60_000, "bound " + b);
    }

    /**
     * The quality a link reports for the oracle's corridor: a corridor bounded enough for an estimate but admitting
     * no increasing one is INCOMPLETE (Duda's bisector rises only if s_min + s_max &gt; 0; a best effort only if the
     * largest slope is positive), which a burst of delays can make it for a few pairs.
     */
    private static LinkQuality linkQuality(OfflineLinkOracle oracle) {
        LinkQuality q = oracle.quality();
        boolean rises = switch (q) {
            case ACCURATE -> oracle.slopeMin().add(oracle.slopeMax()).signum() > 0;
            case APPROXIMATE -> oracle.slopeMax() == null || oracle.slopeMax().signum() > 0;
            default -> true;
        };
        return rises ? q : LinkQuality.INCOMPLETE;
    }

    @Property(tries = 40)
    void horizonAnswersFromTheOlderEpochExactly(@ForAll long seed) {
        long horizon = 40 * 100_000_000L; // pairs come every 0.1 s on average: ~40 pairs per horizon
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON.withHorizon(horizon));
        List<long[]> pairs = Scenarios.generate(Scenarios.Shape.REALISTIC, seed, 150);
        pairs.sort((p, q) -> Long.compare(p[1], q[1]));
        List<long[]> seen = new ArrayList<>();
        for (long[] p : pairs) {
            feed(link, p);
            seen.add(p);
            List<long[]> upper = new ArrayList<>();
            List<long[]> lower = new ArrayList<>();
            for (long[] s : seen) {
                if (s[1] >= link.windows()[0].olderStart()) {
                    (s[0] == 1 ? upper : lower).add(new long[] {s[1], s[2]});
                }
            }
            OfflineLinkOracle oracle = OfflineLinkOracle.solve(upper, lower);
            assertEquals(linkQuality(oracle), link.quality());
            ExactLine max = link.maxLine();
            assertEquals(oracle.slopeMax(), max == null ? null : max.slope());
            assertTrue(link.latestX() - link.windows()[0].olderStart() < horizon);
        }
        assertTrue(link.epoch() > 2, "epochs rotated " + link.epoch());
    }

    @Test
    void failureIsFinalWithoutHorizonAndKeepsTheLastGoodEstimate() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON);
        link.addAtoB(0, 10);
        link.addBtoA(5, 10);
        link.addAtoB(20, 30);
        link.addBtoA(25, 30);
        assertEquals(LinkQuality.ACCURATE, link.quality());
        ClockMap good = link.estimate();
        assertEquals(PairEffect.FAILED, link.addAtoB(40, 29)); // below the lowest compatible line: infeasible
        assertEquals(LinkQuality.FAIL, link.quality());
        assertEquals(good, link.estimate());
        assertEquals(PairEffect.FAILED, link.addAtoB(50, 70));
        assertEquals(1, link.failures());
    }

    @Test
    void horizonRecoversFromAWanderingClock() {
        long horizon = 20 * SECOND;
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON.withHorizon(horizon));
        Random r = new Random(3);
        boolean sawFail = false;
        for (int i = 0; i < 20_000; i++) {
            double t = i * 10_000_000.0;
            // b's rate drifts by 2 ppm per minute: over 200 s a straight line no longer fits tiny delays.
            double rate = 1 + 2e-6 * t / 60e9;
            double delay = 1_000 + 500 * r.nextDouble();
            if (i % 2 == 0) {
                link.addAtoB((long) t, Math.round((t + delay) * rate));
            } else {
                link.addBtoA(Math.round(t * rate), Math.round(t + delay));
            }
            sawFail |= link.failures() > 0;
        }
        assertTrue(sawFail, "the wandering clock should break a linear fit at least once");
        assertEquals(LinkQuality.ACCURATE, link.quality());
        assertNotNull(link.estimate());
    }

    @Test
    void latePairsWithinTheHorizonCountLikeInOrderData() {
        List<long[]> pairs = Scenarios.acrossAGridPoint();
        ConvexHullLink inOrder = new ConvexHullLink(LinkOptions.DEFAULT);
        pairs.forEach(p -> feed(inOrder, p));
        ConvexHullLink reversed = new ConvexHullLink(LinkOptions.DEFAULT);
        int lateNarrowing = 0;
        for (int i = pairs.size() - 1; i >= 0; i--) {
            if (feed(reversed, pairs.get(i)) == PairEffect.NARROWED && pairs.get(i)[1] < reversed.windows()[0].olderStart()) {
                lateNarrowing++;
            }
        }
        // The first pair read puts the older epoch at the 15-minute grid point: half the pairs arrive before it.
        assertEquals(900 * SECOND, reversed.windows()[0].olderStart());
        assertTrue(lateNarrowing > 0, "no late pair narrowed the corridor");
        assertEquals(0, inOrder.stale());
        assertEquals(0, reversed.stale());
        assertEquals(LinkQuality.ACCURATE, reversed.quality());
        assertEquals(inOrder.quality(), reversed.quality());
        assertEquals(inOrder.minLine(), reversed.minLine());
        assertEquals(inOrder.maxLine(), reversed.maxLine());
        assertEquals(inOrder.estimate(), reversed.estimate());
        assertEquals(inOrder.boundsAtLatest(), reversed.boundsAtLatest());
    }

    @Test
    void aPairOlderThanTheHorizonBeforeTheLatestIsStale() {
        long horizon = 60 * SECOND;
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON.withHorizon(horizon));
        Scenarios.acrossAGridPoint().forEach(p -> feed(link, p));
        long latest = link.latestX();
        long oldest = latest - horizon;
        assertTrue(oldest < link.windows()[0].olderStart(), "the test needs the horizon to reach before the older epoch");
        assertEquals(PairEffect.STALE, link.addAtoB(oldest - 1, Scenarios.bOf(oldest - 1) + 40_000));
        assertEquals(1, link.stale());
        assertNotEquals(PairEffect.STALE, link.addAtoB(oldest, Scenarios.bOf(oldest) + 40_000));
        assertNotEquals(PairEffect.STALE, link.addBtoA(Scenarios.bOf(link.windows()[0].olderStart() - 1_000), link.windows()[0].olderStart() - 1));
        assertEquals(1, link.stale());
        assertEquals(latest, link.latestX());
    }

    /** Trace Compass's SyncTest: t1 = a, t2 = b; the last pair makes the corridor infeasible. */
    private static final SendReceive[] SYNC_TEST = {
        new SendReceive("t2", 1, "t1", 1), new SendReceive("t1", 1, "t2", 3), new SendReceive("t2", 2, "t1", 3),
        new SendReceive("t1", 3, "t2", 5), new SendReceive("t1", 4, "t2", 8), new SendReceive("t2", 4, "t1", 5),
        new SendReceive("t2", 4, "t1", 6), new SendReceive("t1", 6, "t2", 7), new SendReceive("t1", 7, "t2", 4)};

    @Test
    void aFailedLinkReportsFailUntilItsAnsweringEpochHasAnEstimate() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        for (int i = 0; i < SYNC_TEST.length - 1; i++) {
            assertNotEquals(PairEffect.FAILED, SYNC_TEST[i].applyTo(link));
        }
        assertEquals(LinkQuality.ACCURATE, link.quality());
        assertEquals(PairEffect.FAILED, SYNC_TEST[SYNC_TEST.length - 1].applyTo(link));
        assertEquals(LinkQuality.FAIL, link.quality());
        assertEquals(9, link.pairs());
        assertEquals(1, link.failures());
        assertNull(link.estimate());
        assertNull(link.boundsAtLatest());
        ConvexHullLink copy = LinkStateCodec.decode(LinkStateCodec.encode(link));
        assertEquals(LinkQuality.FAIL, copy.quality());
        assertEquals(7, link.restartedNs(), "the contradicting pair's time on a's clock");
        assertEquals(link.restartedNs(), copy.restartedNs());

        // One direction is no estimate yet; both directions are.
        for (ConvexHullLink l : List.of(link, copy)) {
            assertEquals(PairEffect.NARROWED, new SendReceive("t1", 8, "t2", 20).applyTo(l));
            assertEquals(LinkQuality.FAIL, l.quality());
            assertEquals(PairEffect.NARROWED, new SendReceive("t2", 20, "t1", 10).applyTo(l));
            assertEquals(LinkQuality.APPROXIMATE, l.quality());
            assertNotNull(l.estimate());
            assertEquals(1, l.failures());
        }
        assertArrayEquals(LinkStateCodec.encode(link), LinkStateCodec.encode(copy));
        // Recovered: an epoch without an estimate later on (traffic paused, one direction) is only that.
        link.addAtoB(10_000 * SECOND, 10_000 * SECOND + 20);
        assertEquals(LinkQuality.INCOMPLETE, link.quality());
    }

    @Test
    void withoutAHorizonTheSameSequenceFailsForGood() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON);
        for (SendReceive p : SYNC_TEST) {
            p.applyTo(link);
        }
        assertEquals(LinkQuality.FAIL, link.quality());
        assertEquals(1, link.failures());
    }

    @Test
    void stateOfTheOneWindowLayoutsStillDecodes() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        Scenarios.generate(Scenarios.Shape.REALISTIC, 9, 100).forEach(p -> feed(link, p));
        for (int version : new int[] {1, 2}) {
            assertArrayEquals(LinkStateCodec.encode(link), LinkStateCodec.encode(LinkStateCodec.decode(
                    oneWindowLayout(link, version))), "layout " + version);
        }
    }

    /** A link under the clock model with known delays, decoded from layout 4, holds all that layout 4 held. */
    @Test
    void stateOfLayoutFourStillDecodes() {
        ConvexHullLink link = new ConvexHullLink(new LinkOptions(30 * 60 * SECOND, 5, 3)
                .withCurvature(20, 15 * SECOND));
        Scenarios.generate(Scenarios.Shape.REALISTIC, 9, 3_000).forEach(p -> feed(link, p));
        assertTrue(link.windows()[0].epoch() > 2, "epochs ended");
        byte[] layout4 = layoutFour(link);
        ConvexHullLink copy = LinkStateCodec.decode(layout4);
        assertArrayEquals(layout4, layoutFour(copy));
        assertEquals(link.boundsAtLatest(), copy.boundsAtLatest());
    }

    /**
     * A link's state written by layout 5 (without the last restart, nor the frequency steps and the largest drift)
     * decodes to the link, never restarted; one of layout 6 (without the steps and drift) to the link without them;
     * one of layout 7 (without the windows' observed steps), as long as its windows measured none, and one of layout
     * 8 (without the excursion and the unshifted windows) to the link.
     */
    @Test
    void statesOfLayoutsFiveToEightStillDecode() {
        ConvexHullLink link = new ConvexHullLink(new LinkOptions(30 * 60 * SECOND, 5, 3)
                .withCurvature(20, 15 * SECOND));
        Scenarios.generate(Scenarios.Shape.REALISTIC, 9, 3_000).forEach(p -> feed(link, p));
        byte[] current = LinkStateCodec.encode(link);
        for (Window.State w : link.state().windows()) {
            assertTrue(Double.isNaN(w.endedSpread()) && Double.isNaN(w.step()), "layout 7 had no such fields");
        }
        // after version and flags: 5 options, the steps' 2 and the largest drift (layout 7), the excursion (layout
        // 9), 6 counters, the last restart (layout 6)
        for (int layout : new int[] {7, 8}) {
            assertArrayEquals(current, LinkStateCodec.encode(LinkStateCodec.decode(withoutVarints(current, layout,
                    8))), "layout " + layout);
        }
        ConvexHullLink five = LinkStateCodec.decode(withoutVarints(current, 5, 5, 6, 7, 8, 15));
        assertEquals(Long.MIN_VALUE, five.restartedNs());
        ConvexHullLink six = LinkStateCodec.decode(withoutVarints(current, 6, 5, 6, 7, 8));
        assertEquals(link.restartedNs(), six.restartedNs());
        assertEquals(link.options(), six.options());
        assertArrayEquals(current, LinkStateCodec.encode(six));
    }

    /** {@code state} as layout {@code version}: without the varints at {@code drop} (counted after the flags). */
    private static byte[] withoutVarints(byte[] state, int version, int... drop) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(version);
        out.write(state[1]);
        int at = 2;
        for (int i = 0; i <= drop[drop.length - 1]; i++) {
            int from = at;
            while ((state[at++] & 0x80) != 0) {
                // the varint's continuation bytes
            }
            int index = i;
            if (java.util.Arrays.stream(drop).noneMatch(d -> d == index)) {
                out.write(state, from, at - from);
            }
        }
        out.write(state, at, state.length - at);
        return out.toByteArray();
    }

    /** Layout 4: the windows without whole-range flags nor turns, and the horizon's straight window alone. */
    private static byte[] layoutFour(ConvexHullLink link) {
        ConvexHullLink.State s = link.state();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(4);
        out.write((s.started() ? 1 : 0) | (s.failing() ? 2 : 0));
        LinkOptions o = s.options();
        for (long v : new long[] {o.horizonNs(), o.minDelayAtoBNs(), o.minDelayBtoANs(),
                Double.doubleToLongBits(o.curvaturePpbPerS()), o.shortestWindowNs(), s.latestX(), s.pairs(),
                s.stored(), s.stale(), s.failures(), s.answer()}) {
            varLong(out, v);
        }
        List<Window.State> windows = new java.util.ArrayList<>(List.of(s.windows()));
        int horizon = s.straights().length - 1;
        windows.add(s.straights()[horizon]);
        for (Window.State w : windows) {
            varLong(out, (w.newer() != null ? 1 : 0) | (w.older().failed ? 2 : 0)
                    | (w.newer() != null && w.newer().failed ? 4 : 0));
            for (long v : new long[] {w.olderStart(), w.newerStart(), w.olderFrom(), w.newerFrom(), w.epoch()}) {
                varLong(out, v);
            }
            chains(out, w.newer() == null ? List.of(w.older()) : List.of(w.older(), w.newer()));
        }
        varLong(out, s.straightSince()[horizon]);
        return out.toByteArray();
    }

    private static void chains(java.io.ByteArrayOutputStream out, List<Corridor> corridors) {
        for (Corridor c : corridors) {
            for (HalfHull h : List.of(c.upper, c.lower)) {
                varLong(out, h.size);
                for (int i = 0; i < h.size; i++) {
                    varLong(out, h.x(i) - (i == 0 ? 0 : h.x(i - 1)));
                    varLong(out, h.y(i) - (i == 0 ? 0 : h.y(i - 1)));
                }
            }
        }
    }

    /** Layouts 1 and 2 of a linear link: one window's fields among the link's (layout 1 without the failing flag). */
    private static byte[] oneWindowLayout(ConvexHullLink link, int version) {
        ConvexHullLink.State s = link.state();
        Window.State w = s.windows()[0];
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(version);
        out.write((s.started() ? 1 : 0) | (w.newer() != null ? 2 : 0) | (w.older().failed ? 4 : 0)
                | (w.newer() != null && w.newer().failed ? 8 : 0) | (version > 1 && s.failing() ? 16 : 0));
        LinkOptions o = s.options();
        for (long v : new long[] {o.horizonNs(), o.minDelayAtoBNs(), o.minDelayBtoANs(), s.latestX(),
                w.olderStart(), w.newerStart(), s.pairs(), s.stored(), s.stale(), s.failures(), w.epoch()}) {
            varLong(out, v);
        }
        chains(out, w.newer() == null ? List.of(w.older()) : List.of(w.older(), w.newer()));
        return out.toByteArray();
    }

    private static void varLong(java.io.ByteArrayOutputStream out, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            out.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        out.write((int) z);
    }

    @Test
    void minimumDelaysNarrowTheCorridor() {
        Random r = new Random(11);
        ConvexHullLink plain = new ConvexHullLink(LinkOptions.NO_HORIZON);
        ConvexHullLink corrected = new ConvexHullLink(LinkOptions.NO_HORIZON.withMinDelays(40_000, 30_000));
        for (int i = 0; i < 2_000; i++) {
            long t = i * 1_000_000L;
            long delay = 50_000 + (long) (-100_000 * Math.log(1 - r.nextDouble()));
            for (ConvexHullLink link : List.of(plain, corrected)) {
                if (i % 2 == 0) {
                    link.addAtoB(t, t + 7 + delay);
                } else {
                    link.addBtoA(t + 7, t + delay);
                }
            }
        }
        assertEquals(LinkQuality.ACCURATE, corrected.quality());
        assertTrue(corrected.slopeAccuracy().compareTo(plain.slopeAccuracy()) <= 0);
        BigDecimal w0 = plain.boundsAtLatest().upNs().add(plain.boundsAtLatest().downNs());
        BigDecimal w1 = corrected.boundsAtLatest().upNs().add(corrected.boundsAtLatest().downNs());
        assertTrue(w1.compareTo(w0.subtract(BigDecimal.valueOf(60_000))) < 0, w0 + " -> " + w1);
    }

    @Property(tries = 40)
    void stateRoundTripsAndContinuesIdentically(@ForAll long seed, @ForAll Scenarios.Shape shape,
                                                @ForAll @IntRange(min = 0, max = 300) int cut) {
        LinkOptions options = new LinkOptions(shape == Scenarios.Shape.GRID ? 0 : 30 * SECOND, 5, 3);
        ConvexHullLink link = new ConvexHullLink(options);
        List<long[]> pairs = Scenarios.generate(shape, seed, 300);
        for (int i = 0; i < cut; i++) {
            feed(link, pairs.get(i));
        }
        byte[] bytes = LinkStateCodec.encode(link);
        ConvexHullLink copy = LinkStateCodec.decode(bytes);
        assertArrayEquals(bytes, LinkStateCodec.encode(copy));
        for (int i = cut; i < pairs.size(); i++) {
            assertEquals(feed(link, pairs.get(i)), feed(copy, pairs.get(i)));
        }
        assertArrayEquals(LinkStateCodec.encode(link), LinkStateCodec.encode(copy));
        assertEquals(link.quality(), copy.quality());
        assertEquals(link.estimate(), copy.estimate());
    }

    @Test
    void corruptStateIsRejectedWithAClearError() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        Scenarios.generate(Scenarios.Shape.REALISTIC, 9, 100).forEach(p -> feed(link, p));
        byte[] bytes = LinkStateCodec.encode(link);
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(bytes, len);
            try {
                LinkStateCodec.decode(cut);
                throw new AssertionError("decoded a state cut to " + len + " bytes");
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("link state") || expected.getMessage().contains("chain"),
                        expected.getMessage());
            }
        }
    }

    @Test
    void steadyLinkStateIsSmall() {
        List<long[]> pairs = Scenarios.generate(Scenarios.Shape.REALISTIC, 5, 300_000);
        pairs.sort((p, q) -> Long.compare(p[1], q[1]));
        LinkOptions model = LinkOptions.DEFAULT.withCurvature(LinkOptions.DEFAULT_CURVATURE_PPB_PER_S,
                LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        for (LinkOptions options : List.of(LinkOptions.DEFAULT, model, model.withMinDelays(20_000, 20_000))) {
            ConvexHullLink link = new ConvexHullLink(options);
            int largest = 0;
            for (int i = 0; i < pairs.size(); i++) {
                feed(link, pairs.get(i));
                if (i % 1000 == 0) {
                    largest = Math.max(largest, LinkStateCodec.encode(link).length);
                }
            }
            boolean straights = link.straights().windows().length > 0;
            System.out.printf("steady link state, %s: %d bytes now, %d bytes at most, %d windows, %d hull points%n",
                    !options.bending() ? "linear clocks" : straights ? "clock model, known delays" : "clock model",
                    LinkStateCodec.encode(link).length,
                    largest, link.windows().length, link.hullPoints());
            // known minimum delays add the straight windows' chains (docs/LINK-CORE.md, "State")
            int limit = straights ? 2560 : 2048;
            assertTrue(largest <= limit, "state of " + largest + " bytes");
        }
    }

    @Test
    void rejectsTimestampsThatOverflowWithTheMinimumDelay() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON.withMinDelays(0, 10));
        try {
            link.addBtoA(Long.MAX_VALUE - 3, 0);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("overflows"));
            return;
        }
        throw new AssertionError("expected an error");
    }

    @Test
    void absentAndIncompleteLinksHaveNoEstimate() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        assertEquals(LinkQuality.ABSENT, link.quality());
        assertNull(link.boundsAtLatest());
        link.addAtoB(100, 200);
        assertEquals(LinkQuality.INCOMPLETE, link.quality());
        assertNull(link.estimate());
        link.addBtoA(150, 300);
        assertEquals(LinkQuality.APPROXIMATE, link.quality());
        ClockMap c = link.estimate();
        assertEquals(DoubleDouble.ONE, c.slope());
        LinkBounds b = link.boundsAt(300);
        assertNull(b.upNs());
    }
}
