package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Differential tests of the incremental corridor against {@link OfflineLinkOracle}: after every pair, quality,
 * L_min, L_max and the LP 6 envelopes at many times must be identical to the exact offline solution.
 */
class CorridorTest {

    @Property(tries = 300)
    void matchesOfflineSolutionAfterEveryPair(@ForAll Scenarios.Shape shape, @ForAll long seed,
                                              @ForAll @IntRange(min = 1, max = 60) int n) {
        replay(Scenarios.generate(shape, seed, n));
    }

    @Test
    void keepsOnlyAFewHullPointsOnALongRealisticStream() {
        List<long[]> pairs = Scenarios.generate(Scenarios.Shape.REALISTIC, 42, 200_000);
        Corridor c = new Corridor();
        int maxPoints = 0;
        long narrowed = 0;
        for (long[] p : pairs) {
            if (c.add(p[0] == 1, p[1], p[2]) == PairEffect.NARROWED) {
                narrowed++;
            }
            maxPoints = Math.max(maxPoints, c.hullPoints());
        }
        assertEquals(LinkQuality.ACCURATE, c.quality());
        assertTrue(maxPoints < 64, "hull points " + maxPoints);
        assertTrue(narrowed < pairs.size() / 100, "narrowed " + narrowed);
    }

    static void replay(List<long[]> pairs) {
        Corridor corridor = new Corridor();
        List<long[]> upper = new ArrayList<>();
        List<long[]> lower = new ArrayList<>();
        Rational previousAccuracy = null;
        for (int i = 0; i < pairs.size(); i++) {
            long[] p = pairs.get(i);
            (p[0] == 1 ? upper : lower).add(new long[] {p[1], p[2]});
            OfflineLinkOracle oracle = OfflineLinkOracle.solve(upper, lower);
            PairEffect effect = corridor.add(p[0] == 1, p[1], p[2]);
            String at = "pair " + i + " of " + pairs.size();
            if (oracle.quality() == LinkQuality.FAIL) {
                assertEquals(PairEffect.FAILED, effect, at);
                assertEquals(LinkQuality.FAIL, corridor.quality(), at);
                return;
            }
            assertEquals(oracle.quality(), corridor.quality(), at);
            assertLine(oracle.slopeMin(), oracle.interceptMin(), corridor.minLine(), at + " L_min");
            assertLine(oracle.slopeMax(), oracle.interceptMax(), corridor.maxLine(), at + " L_max");
            for (long t : probes(upper, lower)) {
                assertEquals(oracle.upperAt(t), corridor.upperAt(t), at + " upperAt " + t);
                assertEquals(oracle.lowerAt(t), corridor.lowerAt(t), at + " lowerAt " + t);
            }
            assertTrue(corridor.hullPoints() <= i + 1);
            if (corridor.quality() == LinkQuality.ACCURATE) {
                // Slope accuracy [Jabbarifar 2013, Eq. 3.13] never grows while the corridor only gains pairs.
                Rational accuracy = corridor.maxLine().slope().subtract(corridor.minLine().slope());
                assertTrue(previousAccuracy == null || accuracy.compareTo(previousAccuracy) <= 0, at);
                previousAccuracy = accuracy;
            }
        }
    }

    private static void assertLine(Rational slope, Rational intercept, ExactLine line, String at) {
        if (slope == null) {
            assertEquals(null, line, at);
        } else {
            assertEquals(slope, line == null ? null : line.slope(), at);
            assertEquals(intercept, line.intercept(), at);
        }
    }

    /** Every point's x, its neighbours, and times far outside. */
    private static TreeSet<Long> probes(List<long[]> upper, List<long[]> lower) {
        TreeSet<Long> ts = new TreeSet<>();
        for (List<long[]> side : List.of(upper, lower)) {
            for (long[] p : side) {
                ts.add(p[0]);
                if (p[0] > Long.MIN_VALUE) {
                    ts.add(p[0] - 1);
                }
                if (p[0] < Long.MAX_VALUE) {
                    ts.add(p[0] + 1);
                }
            }
        }
        long lo = ts.first();
        long hi = ts.last();
        ts.add(lo / 2 + hi / 2);
        ts.add(lo > Long.MIN_VALUE / 2 ? lo - Math.abs(lo / 3) - 1000 : Long.MIN_VALUE);
        ts.add(hi < Long.MAX_VALUE / 2 ? hi + Math.abs(hi / 3) + 1000 : Long.MAX_VALUE);
        return ts;
    }
}
