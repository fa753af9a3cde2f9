package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class RegionLinkSerdeTest {

    private static final String REGIONS = "app-regions-repartition";
    private static final String CHANGELOG = "app-region-links-changelog";

    private final Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID())));

    /** The summary's bytes as they came, behind the weight: read back, the same record and weight. */
    @Test
    void aStoredLinkKeepsTheSummaryAsItCame() {
        LinkSummary s = RegionInputSerdeTest.summary("a", "b");
        byte[] written = topics.networkInput.serializer().serialize(REGIONS, new NetworkInput(s, null));
        RegionInput in = topics.regionInput.deserializer().deserialize(REGIONS, written);
        for (double weight : new double[] {Double.NaN, 3.5e-7}) {
            byte[] stored = topics.regionLink.serializer().serialize(CHANGELOG, new RegionLink(in, weight));
            assertArrayEquals(written, Arrays.copyOfRange(stored, stored.length - written.length, stored.length));
            RegionLink read = topics.regionLink.deserializer().deserialize(CHANGELOG, stored);
            assertEquals(Double.doubleToLongBits(weight), Double.doubleToLongBits(read.forestWeight()));
            assertTrue(read.input().encodedSummary());
            assertEquals(s, read.input().value().getSummary());
            assertEquals(Double.isNaN(weight) ? null : weight, read.summary().getForestWeight());
        }
    }

    /** A value of the format before, a LinkSummary with its forest_weight, still reads. */
    @Test
    void aSummaryStoredInTheFormatBeforeReads() {
        LinkSummary s = RegionInputSerdeTest.summary("a", "b");
        s.setForestWeight(2.0e-6);
        RegionLink read = topics.regionLink.deserializer().deserialize(CHANGELOG,
                topics.linkSummary.serializer().serialize(CHANGELOG, s));
        assertEquals(2.0e-6, read.forestWeight());
        assertEquals(s, read.summary());
        s.setForestWeight(null);
        read = topics.regionLink.deserializer().deserialize(CHANGELOG,
                topics.linkSummary.serializer().serialize(CHANGELOG, s));
        assertTrue(Double.isNaN(read.forestWeight()));
        assertNull(read.summary().getForestWeight());
    }

    @Test
    void aValueOfNoKnownFormatIsRefused() {
        assertThrows(SerializationException.class,
                () -> topics.regionLink.deserializer().deserialize(CHANGELOG, new byte[] {7, 1, 2}));
        assertThrows(SerializationException.class,
                () -> topics.regionLink.deserializer().deserialize(CHANGELOG, new byte[] {RegionLinkSerde.FORMAT}));
    }
}
