package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RegionPatternTest {

    @Test
    void theFirstGroupOfTheFirstMatchNamesTheRegion() {
        RegionPattern racks = RegionPattern.of("^(rack\\d+)-");
        assertEquals("rack7", racks.apply("rack7-node12"));
        assertEquals("", racks.apply("node12"), "not matched: the empty region");
        assertEquals("", RegionPattern.of("^(a)?b").apply("b"), "a group that takes no part: the empty region");
        assertEquals("eu", RegionPattern.of("\\.([a-z]+)\\.example$").apply("h1.eu.example"));
        var memoized = racks.memoized();
        for (String node : new String[] {"rack7-node12", "node12", "rack7-node12", "rack70-a"}) {
            assertEquals(racks.apply(node), memoized.apply(node), node);
        }
    }

    @Test
    void aPatternWithoutAGroupIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RegionPattern.of("^rack\\d+-"));
    }
}
