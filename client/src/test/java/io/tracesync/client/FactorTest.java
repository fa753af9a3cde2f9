package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.HistoricConversion.Basis;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FactorTest {

    @Test
    void tiesRoundTowardPositiveInfinity() {
        assertEquals(11, convert(10.5, 0).referenceNs());
        assertEquals(0, convert(-0.5, 0).referenceNs());
        assertEquals(-1, convert(-1.5, 0).referenceNs());
        // 2^-60 above a tie, carried only by the offset's low part
        assertEquals(11, PublishedFactor.of(Factors.record("n", 1, 1, 0, 10.5, 0x1p-60, null, null)).convert(0)
                .referenceNs());
        assertEquals(10, PublishedFactor.of(Factors.record("n", 1, 1, 0, 10.5, -0x1p-60, null, null)).convert(0)
                .referenceNs());
    }

    @Test
    void boundsRoundOutwardAndPicosecondsCount() {
        // map(0) = 10.25; up 1 ps, down 1 ps: [10.249, 10.251] → [10, 11]
        ReferenceTime c = PublishedFactor.of(Factors.record("n", 1, 1, 0, 10.25, 0, 1L, 1L)).convert(0);
        assertEquals(10, c.referenceNs());
        assertEquals(OptionalLong.of(10), c.lowerNs());
        assertEquals(OptionalLong.of(11), c.upperNs());
        // exact integers stay: map(0) = 10, up 2 ns, down 3 ns
        c = PublishedFactor.of(Factors.record("n", 1, 1, 0, 10, 0, 2000L, 3000L)).convert(0);
        assertEquals(OptionalLong.of(7), c.lowerNs());
        assertEquals(OptionalLong.of(12), c.upperNs());
    }

    @Test
    void aNanosecondTimestampBeyondDoublePrecisionConvertsExactly() {
        // slope 1 + 2^-60 (lo only), t = 2^61 + 1: slope·t = 2^61 + 1 + 2 + 2^-60; a double would lose the + 1
        long t = (1L << 61) + 1;
        ReferenceTime c = PublishedFactor.of(Factors.record("n", 7, 1, 0x1p-60, 0, 0, null, null)).convert(t);
        assertEquals(t + 2, c.referenceNs());
        assertEquals(7, c.version());
        assertTrue(c.lowerNs().isEmpty() && c.upperNs().isEmpty());
    }

    /**
     * A record with an anchor and growth rates: its bounds hold at the anchor and grow away from it (up by
     * growth_above after it, by growth_below before it; down the other way round), as the topology's own
     * conversion grows them; a record without them (an older writer's) keeps its bounds everywhere.
     */
    @Test
    void boundsGrowAwayFromTheAnchor() {
        SyncFactor r = SyncFactor.newBuilder(Factors.record("n", 1, 1, 0, 0, 0, 1_000L, 2_000L))
                .setAnchorNs(1_000_000L).setGrowthAbove(1e-6).setGrowthBelow(3e-6).build();
        PublishedFactor f = PublishedFactor.of(r);
        ReferenceTime at = f.convert(1_000_000);
        assertEquals(OptionalLong.of(999_998), at.lowerNs());
        assertEquals(OptionalLong.of(1_000_001), at.upperNs());
        // 1 s after it: up 1 ns + 1 µs, down 2 ns + 3 µs (rounded up by at most a nanosecond more)
        ReferenceTime after = f.convert(1_001_000_000);
        assertWithinANanosecondOutside(1_001_000_000 - 2 - 3_000, after.lowerNs(), -1);
        assertWithinANanosecondOutside(1_001_000_000 + 1 + 1_000, after.upperNs(), 1);
        ReferenceTime before = f.convert(-999_000_000);
        assertWithinANanosecondOutside(-999_000_000 - 2 - 1_000, before.lowerNs(), -1);
        assertWithinANanosecondOutside(-999_000_000 + 1 + 3_000, before.upperNs(), 1);
        ReferenceTime old = PublishedFactor.of(Factors.record("n", 1, 1, 0, 0, 0, 1_000L, 2_000L))
                .convert(1_001_000_000);
        assertEquals(OptionalLong.of(1_000_999_998), old.lowerNs());
    }

    /**
     * One factor's answer is its bounds carried from its anchor, and before the anchor of any version but the
     * first it is truncated: an older version would have answered better.
     */
    @Test
    void oneFactorsAnswerSaysHowFarFromItsAnchorAndWhetherAnOlderVersionWouldAnswerBetter() {
        PublishedFactor f = PublishedFactor.of(Factors.anchored("n", 3, 1_000, 0, 1_000L, 0));
        ReferenceTime after = f.convert(1_500);
        assertEquals(Basis.EXTRAPOLATED, after.basis());
        assertEquals(OptionalLong.empty(), after.next());
        assertEquals(500, after.fromDataNs());
        assertFalse(after.truncated());
        ReferenceTime before = f.convert(400);
        assertEquals(600, before.fromDataNs());
        assertTrue(before.truncated());
        assertFalse(PublishedFactor.of(Factors.anchored("n", 1, 1_000, 0, 1_000L, 0)).convert(400).truncated());
    }

    private static void assertWithinANanosecondOutside(long exact, OptionalLong got, int side) {
        long outside = side * (got.orElseThrow() - exact);
        assertTrue(outside >= 0 && outside <= 1, got + " vs " + exact);
    }

    @Test
    void unboundedSidesAreEmpty() {
        ReferenceTime c = PublishedFactor.of(Factors.record("n", 1, 1, 0, 0, 0, 5000L, null)).convert(100);
        assertEquals(OptionalLong.empty(), c.lowerNs());
        assertEquals(OptionalLong.of(105), c.upperNs());
        assertTrue(!c.bounded());
    }

    @Test
    void malformedFactorsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 0, 0, 0, 0, null, null)));
        assertThrows(IllegalArgumentException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, -1, 0, 0, 0, null, null)));
        assertThrows(IllegalArgumentException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 1, 0, Double.NaN, 0, null, null)));
        assertThrows(IllegalArgumentException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 1, Double.POSITIVE_INFINITY, 0, 0, null, null)));
        assertThrows(IllegalArgumentException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 1, 0, 0, 0, -1L, 0L)));
    }

    @Test
    void overflowIsAnError() {
        assertThrows(ArithmeticException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 2, 0, 0, 0, null, null)).convert(Long.MAX_VALUE));
        assertThrows(ArithmeticException.class,
                () -> PublishedFactor.of(Factors.record("n", 1, 1, 0, 0, 0, 1000L, 0L)).convert(Long.MAX_VALUE));
    }

    private static ReferenceTime convert(double offsetHi, long t) {
        return PublishedFactor.of(Factors.record("n", 1, 1, 0, offsetHi, 0, null, null)).convert(t);
    }
}
