package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpecificAvroSerdeTest {

    private static final TraceEvent EVENT = TraceEvent.newBuilder().setNode("n1").setTsNs(1_700_000_000_123_456_789L)
            .setDirection(Direction.SEND).setSaddr(ByteBuffer.wrap(new byte[] {10, 0, 0, 1})).setSport(443)
            .setSeq(4_000_000_000L).setAckSeq(7).setFlags(24).setLength(1448).build();

    private final String scope = UUID.randomUUID().toString();
    private final MockSchemaRegistry registry = MockSchemaRegistry.scope(scope);

    @AfterEach
    void dropScope() {
        MockSchemaRegistry.drop(scope);
    }

    private <T extends org.apache.avro.specific.SpecificRecord> SpecificAvroSerde<T> serde(Class<T> type,
            boolean isKey, Object... config) {
        Map<String, Object> map = new HashMap<>();
        map.put("schema.registry.url", "mock://" + scope);
        for (int i = 0; i < config.length; i += 2) {
            map.put((String) config[i], config[i + 1]);
        }
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
        serde.configure(map, isKey);
        return serde;
    }

    @Test
    void registersUnderTopicNameSubjectsByDefault() {
        serde(SegmentKey.class, true).serializer().serialize("traces.n1", new SegmentKey(1L, 2L, 16));
        serde(TraceEvent.class, false).serializer().serialize("traces.n1", EVENT);
        assertEquals(List.of("traces.n1-key", "traces.n1-value"), List.copyOf(registry.subjects().keySet()));
    }

    @Test
    void recordAndTopicRecordNameStrategies() {
        serde(LinkId.class, true, "key.subject.name.strategy",
                "io.confluent.kafka.serializers.subject.RecordNameStrategy").serializer()
                .serialize("pairs", new LinkId("a", "b"));
        serde(TraceEvent.class, false, "value.subject.name.strategy",
                "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy").serializer()
                .serialize("traces.n1", EVENT);
        assertEquals(List.of("io.tracesync.avro.LinkId", "traces.n1-io.tracesync.avro.TraceEvent"),
                List.copyOf(registry.subjects().keySet()));
    }

    @Test
    void withoutAutoRegisterTheSchemaMustBeThere() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false, "auto.register.schemas", "false");
        SerializationException e = assertThrows(SerializationException.class,
                () -> serde.serializer().serialize("traces.n1", EVENT));
        assertTrue(e.getMessage().contains("traces.n1-value"), e.getMessage());
        assertTrue(registry.subjects().isEmpty());

        int id = registry.register("traces.n1-value", TraceEvent.getClassSchema());
        byte[] bytes = serde.serializer().serialize("traces.n1", EVENT);
        assertEquals(id, WireFormat.schemaId(bytes));
        assertEquals(EVENT, serde.deserializer().deserialize("traces.n1", bytes));
    }

    @Test
    void nullIsNull() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false);
        assertNull(serde.serializer().serialize("t", null));
        assertNull(serde.deserializer().deserialize("t", null));
    }

    @Test
    void unknownSchemaIdIsASerializationError() {
        byte[] bytes = concat(WireFormat.header(999), new byte[] {2, 'x'});
        SerializationException e = assertThrows(SerializationException.class,
                () -> serde(TraceEvent.class, false).deserializer().deserialize("t", bytes));
        assertTrue(e.getMessage().contains("unknown schema id 999"), e.getMessage());
    }

    @Test
    void badHeaderIsASerializationError() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false);
        byte[] bytes = serde.serializer().serialize("t", EVENT);
        bytes[0] = 1;
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", bytes));
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", new byte[] {0, 0}));
    }

    @Test
    void truncatedAvroIsASerializationError() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false);
        byte[] bytes = serde.serializer().serialize("t", EVENT);
        for (int n = WireFormat.HEADER_SIZE; n < bytes.length; n++) {
            byte[] cut = Arrays.copyOf(bytes, n);
            SerializationException e = assertThrows(SerializationException.class,
                    () -> serde.deserializer().deserialize("t", cut), "cut at " + n);
            assertTrue(e.getMessage().contains("TraceEvent"), e.getMessage());
        }
    }

    @Test
    void trailingBytesAreASerializationError() {
        SpecificAvroSerde<LinkId> serde = serde(LinkId.class, true);
        byte[] bytes = concat(serde.serializer().serialize("t", new LinkId("a", "b")), new byte[] {0});
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", bytes));
    }

    /** TraceEvent as it might have been released earlier: no addresses, ports or length, and ts_ns an int. */
    private static final Schema OLD_EVENT = new Schema.Parser().parse("""
            {"type": "record", "name": "TraceEvent", "namespace": "io.tracesync.avro", "fields": [
              {"name": "node", "type": "string"},
              {"name": "ts_ns", "type": "int"},
              {"name": "direction", "type": {"type": "enum", "name": "Direction", "symbols": ["SEND", "RECV"]}},
              {"name": "seq", "type": "long"},
              {"name": "ack_seq", "type": "long"},
              {"name": "flags", "type": "int"}]}""");

    @Test
    void readsDataWrittenWithAnOlderSchemaIntoTheCurrentClass() throws IOException {
        GenericRecord old = new GenericData.Record(OLD_EVENT);
        old.put("node", "n2");
        old.put("ts_ns", 123_456);
        old.put("direction", new GenericData.EnumSymbol(OLD_EVENT.getField("direction").schema(), "RECV"));
        old.put("seq", 5L);
        old.put("ack_seq", 6L);
        old.put("flags", 16);
        int id = registry.register("traces.n2-value", OLD_EVENT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.header(id));
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(OLD_EVENT).write(old, encoder);
        encoder.flush();

        TraceEvent read = serde(TraceEvent.class, false).deserializer().deserialize("traces.n2", out.toByteArray());
        assertEquals(TraceEvent.newBuilder().setNode("n2").setTsNs(123_456L).setDirection(Direction.RECV)
                .setSeq(5L).setAckSeq(6L).setFlags(16).build(), read);
    }

    @Test
    void serializerAndDeserializerAreThreadSafe() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false);
        IntStream.range(0, 2000).parallel().forEach(i -> {
            TraceEvent e = TraceEvent.newBuilder().setNode("n" + i).setTsNs(i).setDirection(Direction.RECV)
                    .setDaddr(ByteBuffer.wrap(new byte[] {(byte) i})).setSeq(i).setAckSeq(0).setFlags(2).build();
            String topic = "traces." + (i % 7);
            assertEquals(e, serde.deserializer().deserialize(topic, serde.serializer().serialize(topic, e)));
            assertEquals(EVENT, serde.deserializer().deserialize(topic, serde.serializer().serialize(topic, EVENT)));
        });
        assertEquals(7, registry.subjects().size());
    }

    @Test
    void aRecordThatCannotBeWrittenLeavesTheNextIntact() {
        SpecificAvroSerde<TraceEvent> serde = serde(TraceEvent.class, false);
        TraceEvent broken = TraceEvent.newBuilder(EVENT).build();
        broken.setNode(null);
        assertThrows(SerializationException.class, () -> serde.serializer().serialize("traces.n1", broken));
        assertEquals(EVENT, serde.deserializer().deserialize("traces.n1",
                serde.serializer().serialize("traces.n1", EVENT)));
    }

    @Test
    void configurationErrors() {
        SpecificAvroSerde<TraceEvent> serde = new SpecificAvroSerde<>(TraceEvent.class);
        assertThrows(ConfigException.class, () -> serde.configure(Map.of(), false));
        assertThrows(IllegalStateException.class, () -> serde.serializer().serialize("t", EVENT));
        assertThrows(IllegalStateException.class,
                () -> serde.deserializer().deserialize("t", WireFormat.header(1)));
    }

    @Test
    void serializerAndDeserializerConfigureAlone() {
        SpecificAvroSerializer<LinkId> serializer = new SpecificAvroSerializer<>(LinkId.class);
        SpecificAvroDeserializer<LinkId> deserializer = new SpecificAvroDeserializer<>(LinkId.class);
        Map<String, String> config = Map.of("schema.registry.url", "mock://" + scope);
        serializer.configure(config, true);
        deserializer.configure(config, true);
        LinkId link = new LinkId("a", "b");
        assertEquals(link, deserializer.deserialize("pairs", serializer.serialize("pairs", link)));
        assertEquals(List.of("pairs-key"), List.copyOf(registry.subjects().keySet()));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
