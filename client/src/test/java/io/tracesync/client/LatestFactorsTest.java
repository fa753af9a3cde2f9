package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatestFactorsTest {

    private final LatestFactors table = new LatestFactors();

    @Test
    void aHigherVersionReplacesAndAnOlderOrEqualOneIsIgnored() {
        LatestFactors.Change first = table.apply("a", Factors.shift("a", 2, 10), "t@0").orElseThrow();
        assertNull(first.previous());
        assertEquals(2, first.current().version());
        assertTrue(table.apply("a", Factors.shift("a", 1, 20), "t@1").isEmpty());
        assertTrue(table.apply("a", Factors.shift("a", 2, 30), "t@2").isEmpty());
        assertEquals(10, table.get("a").orElseThrow().convert(0).referenceNs());
        LatestFactors.Change next = table.apply("a", Factors.shift("a", 5, 40), "t@3").orElseThrow();
        assertEquals(2, next.previous().version());
        assertEquals(40, table.get("a").orElseThrow().convert(0).referenceNs());
    }

    @Test
    void aTombstoneRemovesTheNodeAndAnyVersionMayFollow() {
        table.apply("a", Factors.shift("a", 7, 10), "t@0");
        table.apply("b", Factors.shift("b", 1, 10), "t@1");
        LatestFactors.Change removed = table.apply("a", null, "t@2").orElseThrow();
        assertEquals(7, removed.previous().version());
        assertNull(removed.current());
        assertEquals(Map.of("b", table.get("b").orElseThrow()), table.snapshot());
        assertTrue(table.apply("a", null, "t@3").isEmpty());
        assertTrue(table.apply("a", Factors.shift("a", 1, 99), "t@4").isPresent());
    }

    @Test
    void recordsWithoutAKeyOfAnotherNodeOrMalformedAreSkipped() {
        assertTrue(table.apply(null, Factors.shift("a", 1, 10), "t@0").isEmpty());
        assertTrue(table.apply("b", Factors.shift("a", 1, 10), "t@1").isEmpty());
        SyncFactor badSlope = Factors.record("a", 1, -1, 0, 0, 0, null, null);
        assertTrue(table.apply("a", badSlope, "t@2").isEmpty());
        assertTrue(table.snapshot().isEmpty());
    }
}
