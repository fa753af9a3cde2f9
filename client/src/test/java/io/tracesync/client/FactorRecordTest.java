package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import org.junit.jupiter.api.Test;

class FactorRecordTest {

    @Test
    void aFactorUnderItsNodeIsReadAndANullValueIsATombstone() {
        FactorRecord r = FactorRecord.read("a", Factors.shift("a", 3, 10), "t@0").orElseThrow();
        assertEquals(3, r.factor().version());
        assertTrue(FactorRecord.read("a", null, "t@1").orElseThrow().tombstone());
    }

    @Test
    void recordsWithoutAKeyOfAnotherNodeOrMalformedAreSkipped() {
        assertTrue(FactorRecord.read(null, Factors.shift("a", 1, 10), "t@0").isEmpty());
        assertTrue(FactorRecord.read("b", Factors.shift("a", 1, 10), "t@1").isEmpty());
        SyncFactor badSlope = Factors.record("a", 1, -1, 0, 0, 0, null, null);
        assertTrue(FactorRecord.read("a", badSlope, "t@2").isEmpty());
    }
}
