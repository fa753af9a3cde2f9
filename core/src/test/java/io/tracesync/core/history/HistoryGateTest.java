package io.tracesync.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class HistoryGateTest {

    private static final long SECOND = 1_000_000_000L;
    private final HistoryGate gate = new HistoryGate(10 * SECOND);

    private static FactorVersion version(long number, String reference, long offsetNs, long anchorNs, long boundPs) {
        return new FactorVersion(number, reference, new Factor(ClockMap.of(DoubleDouble.ONE,
                DoubleDouble.of(offsetNs)), boundPs, boundPs, anchorNs, 1e-6, 1e-6), number);
    }

    @Test
    void versionsWithinTheSpacingOfTheLastKeptAreLeftOut() {
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 50_000);
        assertTrue(gate.keeps(null, kept), "a node's first");
        assertFalse(gate.keeps(kept, version(2, "r", 0, 103 * SECOND, 50_000)));
        assertFalse(gate.keeps(kept, version(3, "r", 10, 109 * SECOND, 40_000)));
        assertTrue(gate.keeps(kept, version(4, "r", 0, 110 * SECOND, 50_000)), "the spacing reached");
        assertTrue(new HistoryGate(0).keeps(kept, version(2, "r", 0, 100 * SECOND + 1, 50_000)), "0 keeps all");
    }

    @Test
    void aNewReferenceBoundednessSupersedingOrContradictingVersionIsKept() {
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 50_000);
        assertTrue(gate.keeps(kept, version(2, "s", 0, 101 * SECOND, 50_000)), "another reference");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 101 * SECOND, LinkEstimate.UNBOUNDED)), "unbounded");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 100 * SECOND, 50_000)), "anchored at the last kept");
        assertTrue(gate.keeps(kept, version(2, "r", 0, 99 * SECOND, 50_000)), "anchored before it");
        FactorVersion timeless = new FactorVersion(2, "r", Factor.REFERENCE, 2);
        assertFalse(gate.keeps(kept, timeless), "a reference without link times would supersede everything");
        assertTrue(gate.keeps(null, timeless), "but may be a node's first");
        // 1 s later the kept one's interval is ±(50 + 1,000) ns: a step of 2 µs leaves no common point
        assertTrue(gate.keeps(kept, version(2, "r", 2_200, 101 * SECOND, 50_000)), "a step");
        assertFalse(gate.keeps(kept, version(2, "r", 1_000, 101 * SECOND, 50_000)), "within the interval");
    }

    @Test
    void aVersionDepartingFromTheLastKeptBeyondTheToleranceIsKept() {
        // intervals of ±200 µs overlap: only the tolerance (5 µs by default) tells the departure
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 200_000_000);
        assertTrue(gate.keeps(kept, version(2, "r", 5_001, 103 * SECOND, 200_000_000)), "5.001 µs away");
        assertTrue(gate.keeps(kept, version(2, "r", -5_001, 103 * SECOND, 200_000_000)), "either way");
        assertFalse(gate.keeps(kept, version(2, "r", 4_999, 103 * SECOND, 200_000_000)), "within it");
        HistoryGate spacingAlone = new HistoryGate(10 * SECOND, 0);
        assertFalse(spacingAlone.keeps(kept, version(2, "r", 100_000, 103 * SECOND, 200_000_000)), "0: no tolerance");
        assertTrue(new HistoryGate(10 * SECOND, 1).keeps(kept, version(2, "r", 2, 103 * SECOND, 200_000_000)));
    }

    @Test
    void theVersionBeforeADepartureIsKeptWithIt() {
        FactorVersion kept = version(1, "r", 0, 100 * SECOND, 200_000_000);
        FactorVersion left = version(2, "r", 3_000, 101 * SECOND, 200_000_000);
        FactorVersion previous = version(3, "r", 4_000, 102 * SECOND, 200_000_000);
        assertEquals(List.of(), gate.kept(kept, left, previous), "within the tolerance");
        FactorVersion departing = version(4, "r", 12_000, 103 * SECOND, 200_000_000);
        assertEquals(List.of(previous, departing), gate.kept(kept, previous, departing));
        assertEquals(List.of(departing), gate.kept(kept, kept, departing), "the one before it kept already");
        assertEquals(List.of(departing), gate.kept(kept, null, departing), "none read before it");
        assertEquals(List.of(version(4, "r", 0, 110 * SECOND, 200_000_000)),
                gate.kept(kept, previous, version(4, "r", 0, 110 * SECOND, 200_000_000)), "the spacing alone");
        FactorVersion otherReference = version(4, "s", 12_000, 103 * SECOND, 200_000_000);
        assertEquals(List.of(otherReference), gate.kept(kept, previous, otherReference));
        FactorVersion restarted = new FactorVersion(4, "r", departing.factor(), 4, 101 * SECOND + 1);
        FactorVersion restartedLater = new FactorVersion(4, "r", departing.factor(), 4, 102 * SECOND + 1);
        assertEquals(List.of(restarted), gate.kept(kept, previous, restarted), "the one before lies past the restart");
        assertEquals(List.of(previous, restartedLater), gate.kept(kept, previous, restartedLater));
        FactorVersion restartedEarlier = new FactorVersion(4, "r", departing.factor(), 4, 99 * SECOND);
        assertEquals(List.of(previous, restartedEarlier), gate.kept(kept, previous, restartedEarlier),
                "the restart before the last kept: the chord runs through both anyway");
    }

    /**
     * The swinging door's promise: converted with the versions kept (the chord between two of them), every version
     * left out answers at its anchor within twice the tolerance of its own answer there.
     */
    @Property(tries = 200)
    void everyVersionLeftOutAnswersWithinTwiceTheToleranceOfTheChord(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 20) int toleranceUs) {
        SplittableRandom random = new SplittableRandom(seed);
        HistoryGate g = new HistoryGate(10 * SECOND, toleranceUs * 1_000L);
        NodeHistory history = new NodeHistory(10_000);
        List<FactorVersion> published = new ArrayList<>();
        Set<Long> keptNumbers = new HashSet<>();
        FactorVersion lastKept = null;
        FactorVersion previous = null;
        double offsetNs = 0;
        long anchor = 100 * SECOND;
        for (int i = 1; i <= 300; i++) {
            anchor += random.nextLong(SECOND / 5, 2 * SECOND);
            // a random walk, now and then a slew's worth of tens of µs within a version
            offsetNs += random.nextDouble() < 0.05 ? random.nextDouble(-40_000, 40_000) : random.nextGaussian() * 1_000;
            double slope = 1 + random.nextDouble(-2e-6, 2e-6);
            FactorVersion v = new FactorVersion(i, "r", new Factor(ClockMap.through(anchor,
                    DoubleDouble.of(anchor + Math.rint(offsetNs)), DoubleDouble.of(slope)), 500_000_000, 500_000_000,
                    anchor, 1e-6, 1e-6), i);
            for (FactorVersion k : g.kept(lastKept, previous, v)) {
                assertTrue(history.add(k));
                keptNumbers.add(k.number());
                lastKept = k;
            }
            previous = v;
            published.add(v);
        }
        assertTrue(keptNumbers.size() < published.size(), "some are left out");
        for (FactorVersion v : published) {
            if (keptNumbers.contains(v.number())) {
                continue;
            }
            HistoricConversion c = history.convert(v.anchorNs(), previous);
            BigDecimal own = Conversion.of(v.factor(), v.anchorNs()).referenceNs();
            double apart = c.referenceNs().subtract(own).abs().doubleValue();
            assertTrue(apart <= 2 * toleranceUs * 1_000 + 2, "version " + v.number() + " answers " + apart
                    + " ns from the history's answer (" + c.basis() + ")");
        }
    }

    @Test
    void aNegativeToleranceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HistoryGate(SECOND, -1));
    }
}
