package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion.Basis;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class FactorHistoriesTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong();

    @Test
    void theBudgetIsSharedByTheNodesAndShrinksAsTheyAppear() {
        FactorHistories h = new FactorHistories(12, 0, now::get);
        for (int v = 1; v <= 12; v++) {
            h.add(version("a", v));
        }
        assertEquals(12, h.versions("a").size());
        h.add(version("b", 1));
        assertEquals(numbers(7, 12), numbers(h.versions("a")));
        h.add(version("c", 1));
        assertEquals(numbers(9, 12), numbers(h.versions("a")));
        h.add(tombstone("c"));
        assertTrue(h.versions("c").isEmpty());
        for (int v = 13; v <= 20; v++) {
            h.add(version("a", v));
        }
        assertEquals(numbers(15, 20), numbers(h.versions("a")));
    }

    @Test
    void everyNodeKeepsTwoVersionsWhateverTheBudget() {
        FactorHistories h = new FactorHistories(3, 0, now::get);
        for (String node : List.of("a", "b", "c", "d", "e")) {
            for (int v = 1; v <= 3; v++) {
                h.add(version(node, v));
            }
        }
        assertEquals(numbers(2, 3), numbers(h.versions("a")));
        assertEquals(1, FactorHistories.versionsWithin(1));
        assertEquals(299_593, FactorHistories.versionsWithin(64L << 20));
    }

    /** The same versions from the history topic, in any order: each held once, in order. */
    @Test
    void duplicatesAreHeldOnce() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        h.add(version("a", 2));
        h.add(version("a", 1));
        h.add(version("a", 2));
        h.add(version("a", 1));
        assertEquals(numbers(1, 2), numbers(h.versions("a")));
    }

    /**
     * The factors topic's versions join the history as far as the gate keeps them (the application's spacing); the
     * newest stands beside it in any case: a time past the history's newest version converts with both.
     */
    @Test
    void theFactorsTopicsNewestStandsBesideTheHistory() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        for (int v = 1; v <= 3; v++) {
            h.addLatest(version("a", v));
        }
        assertEquals(numbers(1, 3), numbers(h.versions("a")), "versions 1000 s apart: kept");
        FactorRecord soon = FactorRecord.read("a", Factors.anchored("a", 4, 3_005 * SECOND, 10, 1_000_000L, 4_000),
                "test").orElseThrow();
        h.addLatest(soon);
        assertEquals(numbers(1, 3), numbers(h.versions("a")), "5 s after the last kept: left out");
        ReferenceTime past = h.convert("a", 3_002 * SECOND).orElseThrow();
        assertEquals(Basis.INTERPOLATED, past.basis());
        assertEquals(3, past.version());
        assertEquals(OptionalLong.of(4), past.next());
        assertEquals(4, h.convert("a", 4_000 * SECOND).orElseThrow().version());
        ReferenceTime between = h.convert("a", 1_500 * SECOND).orElseThrow();
        assertEquals(1, between.version());
        assertEquals(OptionalLong.of(2), between.next());
        h.addLatest(version("a", 2));
        assertEquals(4, h.convert("a", 4_000 * SECOND).orElseThrow().version(), "an older one is no news");
    }

    /**
     * A version read from the factors topic that departs from the last kept beyond the gate's tolerance is kept with
     * the version read just before it (the chord then runs through both), but not with one read out of order.
     */
    @Test
    void aDepartureIsKeptWithTheVersionBeforeIt() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        h.addLatest(shifted(1, 1_000, 0));
        h.addLatest(shifted(2, 1_002, 1_000));
        h.addLatest(shifted(3, 1_004, 2_000));
        assertEquals(List.of(1L), numbers(h.versions("a")), "within the spacing and the tolerance");
        h.addLatest(shifted(4, 1_006, 40_000));
        assertEquals(List.of(1L, 3L, 4L), numbers(h.versions("a")), "40 µs away, with the one before");
        h.addLatest(shifted(6, 1_008, 80_000));
        assertEquals(List.of(1L, 3L, 4L, 6L), numbers(h.versions("a")), "version 5 never read: none before it");
    }

    /** Version v of node a anchored at {@code anchorS}, offset {@code offsetNs}, ±200 µs (intervals overlap). */
    private static FactorRecord shifted(long v, long anchorS, double offsetNs) {
        return FactorRecord.read("a", Factors.anchored("a", v, anchorS * SECOND, offsetNs, 200_000_000L, v * 1_000),
                "test").orElseThrow();
    }

    /**
     * Between two versions the answer is interpolated: never wider than the older version carried there (the latest
     * factor's answer at the time) nor than the newer carried back, and narrower once the bounds have grown.
     */
    @Test
    void aTimeBetweenTwoVersionsIsInterpolated() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        FactorRecord older = version("a", 1);
        FactorRecord newer = version("a", 2);
        h.add(older);
        h.add(newer);
        long t = 1_500 * SECOND;
        ReferenceTime c = h.convert("a", t).orElseThrow();
        ReferenceTime live = older.factor().convert(t);
        ReferenceTime back = newer.factor().convert(t);
        assertEquals(Basis.INTERPOLATED, c.basis());
        assertEquals(1, c.version());
        assertEquals(OptionalLong.of(2), c.next());
        assertEquals(500 * SECOND, c.fromDataNs());
        assertFalse(c.truncated());
        assertEquals("ref", c.component());
        assertTrue(width(c) <= width(live) && width(c) <= width(back), c + " vs " + live + ", " + back);
        assertTrue(width(c) < width(live) / 10, c + " vs " + live);
        assertEquals(Basis.EXTRAPOLATED, h.convert("a", 3_000 * SECOND).orElseThrow().basis());
        assertTrue(h.convert("b", t).isEmpty());
    }

    /**
     * Across a change of reference a time converts with the nearer version; asked for a reference, with that
     * reference's versions alone (the end of a span that began before the change), and not at all without one.
     */
    @Test
    void aTimeConvertsToAGivenReferenceWithThatReferencesVersions() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        h.add(version("a", 1));
        FactorRecord other = FactorRecord.read("a", SyncFactor.newBuilder(Factors.anchored("a", 2, 2_000 * SECOND,
                10, 1_000_000L, 2_000)).setReference("other").setComponent("other").build(), "test").orElseThrow();
        h.add(other);
        long t = 1_600 * SECOND;
        assertEquals("other", h.convert("a", t).orElseThrow().reference(), "the nearer version");
        ReferenceTime kept = h.convert("a", t, "ref").orElseThrow();
        assertEquals("ref", kept.reference());
        assertEquals(1, kept.version());
        assertEquals(Basis.EXTRAPOLATED, kept.basis());
        assertEquals(2, h.convert("a", t, "other").orElseThrow().version());
        assertTrue(h.convert("a", t, "nobody").isEmpty());
    }

    /**
     * Before the oldest version held the answer is that version's, carried back: truncated when older versions
     * existed (dropped here, or never read: its number is not 1), not before the very first.
     */
    @Test
    void aTimeBeforeTheVersionsHeldIsFlaggedTruncatedWhenOlderOnesExisted() {
        FactorHistories h = new FactorHistories(2, 0, now::get);
        h.add(version("a", 1));
        assertFalse(h.convert("a", 0).orElseThrow().truncated());
        h.add(version("a", 2));
        h.add(version("a", 3));
        ReferenceTime c = h.convert("a", 1_500 * SECOND).orElseThrow();
        assertTrue(c.truncated());
        assertEquals(Basis.EXTRAPOLATED, c.basis());
        assertEquals(2, c.version());
        assertEquals(500 * SECOND, c.fromDataNs());
        assertFalse(h.convert("a", 2_500 * SECOND).orElseThrow().truncated());

        FactorHistories compacted = new FactorHistories(100, 0, now::get);
        compacted.add(version("b", 7));
        assertTrue(compacted.convert("b", 0).orElseThrow().truncated());
        assertFalse(compacted.convert("b", 8_000 * SECOND).orElseThrow().truncated());
    }

    @Test
    void versionsOlderThanTheRetentionExpireButTheNewestStays() {
        FactorHistories h = new FactorHistories(100, 2_500, now::get);
        for (int v = 1; v <= 5; v++) {
            h.add(version("a", v));
        }
        now.set(5_000);
        h.expire();
        assertEquals(numbers(3, 5), numbers(h.versions("a")));
        now.set(100_000);
        h.expire();
        assertEquals(numbers(5, 5), numbers(h.versions("a")));
        FactorHistories kept = new FactorHistories(100, 0, now::get);
        kept.add(version("a", 1));
        kept.expire();
        assertEquals(1, kept.versions("a").size());
    }

    /** A tombstone of either topic drops the node's history, so that its versions may start again from 1. */
    @Test
    void aTombstoneDropsTheHistory() {
        FactorHistories h = new FactorHistories(100, 0, now::get);
        h.add(version("a", 4));
        h.addLatest(tombstone("a"));
        assertTrue(h.convert("a", 0).isEmpty());
        h.add(version("a", 1));
        assertEquals(numbers(1, 1), numbers(h.versions("a")));
        h.add(tombstone("a"));
        assertTrue(h.versions("a").isEmpty());
    }

    /** Version v of a node: anchored at v·1000 s, ±1 µs there, published at v·1000 ms. */
    private static FactorRecord version(String node, long v) {
        SyncFactor f = Factors.anchored(node, v, v * 1_000 * SECOND, 10, 1_000_000L, v * 1_000);
        return FactorRecord.read(node, f, "test").orElseThrow();
    }

    private static FactorRecord tombstone(String node) {
        return new FactorRecord(node, null);
    }

    private static long width(ReferenceTime c) {
        return c.upperNs().orElseThrow() - c.lowerNs().orElseThrow();
    }

    private static List<Long> numbers(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    private static List<Long> numbers(List<FactorVersion> versions) {
        return versions.stream().map(FactorVersion::number).toList();
    }
}
