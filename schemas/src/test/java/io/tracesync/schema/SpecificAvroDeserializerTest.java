package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class SpecificAvroDeserializerTest {

    private static final String SCOPE = "deserializer-" + UUID.randomUUID();

    /** One deserializer fed records of two writer schemas in turn reads each with its own schema's reader. */
    @Test
    void recordsOfTwoWriterSchemasInTurnEachReadWithTheirOwn() throws IOException {
        Schema current = TraceEvent.getClassSchema();
        // an older writer schema: without the defaulted "length" field
        Schema older = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(f -> !f.name().equals("length"))
                        .map(f -> new Schema.Field(f, f.schema())).toList());
        MockSchemaRegistry registry = MockSchemaRegistry.scope(SCOPE);
        int currentId = registry.register("t-value", current);
        int olderId = registry.register("t-value-old", older);
        TraceEvent event = TraceEvent.newBuilder().setNode("a").setTsNs(42).setDirection(Direction.SEND)
                .setSeq(1).setAckSeq(2).setFlags(24).setLength(1448).build();
        GenericRecord old = new GenericData.Record(older);
        for (Schema.Field f : older.getFields()) {
            old.put(f.name(), event.get(f.name()));
        }
        byte[] withCurrent = wire(currentId, current, event);
        byte[] withOlder = wire(olderId, older, old);
        SpecificAvroDeserializer<TraceEvent> deserializer = new SpecificAvroDeserializer<>(TraceEvent.class);
        deserializer.configure(Map.of("schema.registry.url", "mock://" + SCOPE), false);
        for (byte[] bytes : List.of(withCurrent, withOlder, withOlder, withCurrent, withOlder)) {
            TraceEvent read = deserializer.deserialize("t", bytes);
            assertEquals(bytes == withCurrent ? Integer.valueOf(1448) : null, read.getLength());
            read.setLength(1448);
            assertEquals(event, read);
        }
        assertNull(deserializer.deserialize("t", null));
    }

    private static byte[] wire(int id, Schema schema, Object record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WireFormat.header(id));
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
