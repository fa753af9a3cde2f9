package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.schema.MockSchemaRegistry;
import io.tracesync.schema.WireFormat;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.link.LinkSummaries;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class RegionInputSerdeTest {

    private static final String TOPIC = "app-regions-repartition";
    private static final long SECOND = 1_000_000_000L;

    private final String scope = UUID.randomUUID().toString();
    private final Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + scope)));
    private final RegionInputSerde serde = topics.regionInput;

    /** A link's summary after 10 s of pairs each way. */
    static LinkSummary summary(String a, String b) {
        LinkKey key = new LinkKey(a, b);
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        for (long x = 0; x < 10 * SECOND; x += SECOND / 10) {
            link.addAtoB(x, x + 1_000_000 + 30_000);
            link.addBtoA(x + 1_000_000, x + 40_000);
        }
        return LinkSummaries.of(key, link, LinkEstimate.of(key, link));
    }

    @Test
    void aSummaryWaitsAsWrittenItsNamesFoundInItsBytes() {
        NetworkInput in = new NetworkInput(summary("node-a1", "node-ä"), null);
        byte[] bytes = topics.networkInput.serializer().serialize(TOPIC, in);
        RegionInput read = serde.deserializer().deserialize(TOPIC, bytes);
        assertTrue(read.encodedSummary());
        assertSame(bytes, serde.serializer().serialize(TOPIC, read), "written again as it came");
        PendingInputs pending = new PendingInputs();
        assertTrue(pending.add(read));
        assertFalse(pending.add(asRead(summary("node-a1", "node-ä"))), "the same link");
        assertTrue(pending.add(asRead(summary("node-a1", "node-c"))), "another link");
        assertTrue(pending.add(asRead(summary("node-a1node-", "ä"))), "other names, the same bytes");
        assertEquals(in, read.value());
        RegionInput untitled = serde.deserializer().deserialize(null, bytes);
        assertEquals(in, untitled.value(), "a record read without its topic's name, as a benchmark reads it");
    }

    private RegionInput asRead(LinkSummary s) {
        return serde.deserializer().deserialize(TOPIC,
                topics.networkInput.serializer().serialize(TOPIC, new NetworkInput(s, null)));
    }

    @Test
    void aFactorIsReadAtOnce() {
        SyncFactor f = SyncFactor.newBuilder().setNode("n1").setComponent("r").setReference("r")
                .setMap(new ClockMap(1.0, 0.0, 0.0, 0.0)).setUpPs(5L).setDownPs(6L).setAnchorNs(0L)
                .setValidFromMs(0).setVersion(1).build();
        NetworkInput in = new NetworkInput(null, f);
        RegionInput read = serde.deserializer().deserialize(TOPIC,
                serde.serializer().serialize(TOPIC, RegionInput.of(in)));
        assertFalse(read.encodedSummary());
        assertEquals(in, read.value());
    }

    /** Written with a schema whose fields come in another order: read, and written again with the current one. */
    @Test
    void aSummaryOfASchemaOfAnotherLayoutIsWrittenAgain() throws IOException {
        Schema current = NetworkInput.getClassSchema();
        List<Schema.Field> reversed = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            reversed.add(0, new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
        }
        Schema writer = Schema.createRecord(current.getName(), null, current.getNamespace(), false, reversed);
        assertFalse(RegionInputSerde.namesFirst(writer));
        assertTrue(RegionInputSerde.namesFirst(current));
        LinkSummary s = summary("a", "b");
        GenericData.Record r = new GenericData.Record(writer);
        r.put("summary", s);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WireFormat.header(MockSchemaRegistry.scope(scope).register(TOPIC + "-value", writer)));
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<Object>(writer).write(r, encoder);
        encoder.flush();

        RegionInput read = serde.deserializer().deserialize(TOPIC, out.toByteArray());
        assertTrue(read.encodedSummary());
        assertEquals(new NetworkInput(s, null), read.value());
        assertArrayEquals(topics.networkInput.serializer().serialize(TOPIC, new NetworkInput(s, null)),
                serde.serializer().serialize(TOPIC, read));
    }

    @Test
    void aRecordThatEndsInsideItsNamesIsRefused() {
        byte[] bytes = topics.networkInput.serializer().serialize(TOPIC, new NetworkInput(summary("a", "b"), null));
        assertThrows(SerializationException.class,
                () -> serde.deserializer().deserialize(TOPIC, Arrays.copyOf(bytes, WireFormat.HEADER_SIZE + 3)));
    }
}
