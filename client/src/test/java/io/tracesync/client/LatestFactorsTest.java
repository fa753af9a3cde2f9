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
        LatestFactors.Change first = table.apply(record("a", Factors.shift("a", 2, 10))).orElseThrow();
        assertNull(first.previous());
        assertEquals(2, first.current().version());
        assertTrue(table.apply(record("a", Factors.shift("a", 1, 20))).isEmpty());
        assertTrue(table.apply(record("a", Factors.shift("a", 2, 30))).isEmpty());
        assertEquals(10, table.get("a").orElseThrow().convert(0).referenceNs());
        LatestFactors.Change next = table.apply(record("a", Factors.shift("a", 5, 40))).orElseThrow();
        assertEquals(2, next.previous().version());
        assertEquals(40, table.get("a").orElseThrow().convert(0).referenceNs());
    }

    @Test
    void aTombstoneRemovesTheNodeAndAnyVersionMayFollow() {
        table.apply(record("a", Factors.shift("a", 7, 10)));
        table.apply(record("b", Factors.shift("b", 1, 10)));
        LatestFactors.Change removed = table.apply(record("a", null)).orElseThrow();
        assertEquals(7, removed.previous().version());
        assertNull(removed.current());
        assertEquals(Map.of("b", table.get("b").orElseThrow()), table.snapshot());
        assertTrue(table.apply(record("a", null)).isEmpty());
        assertTrue(table.apply(record("a", Factors.shift("a", 1, 99))).isPresent());
    }

    private static FactorRecord record(String node, SyncFactor value) {
        return FactorRecord.read(node, value, "t").orElseThrow();
    }
}
