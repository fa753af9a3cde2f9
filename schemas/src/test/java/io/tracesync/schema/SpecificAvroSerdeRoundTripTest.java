package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

class SpecificAvroSerdeRoundTripTest {

    private static final String SCOPE = "round-trip-" + UUID.randomUUID();

    @Provide
    Arbitrary<SpecificRecord> records() {
        return Arbitraries.of(GeneratedTypes.ALL).flatMap(AvroArbitraries::records);
    }

    @Property(tries = 500)
    void everyGeneratedTypeRoundTrips(@ForAll("records") SpecificRecord record, @ForAll boolean isKey)
            throws IOException {
        byte[] bytes = roundTrip(record, isKey);
        MockSchemaRegistry registry = MockSchemaRegistry.scope(SCOPE);
        int id = registry.id("topic-" + (isKey ? "key" : "value"), record.getSchema());
        assertArrayEquals(WireFormat.header(id), java.util.Arrays.copyOf(bytes, WireFormat.HEADER_SIZE));
        assertArrayEquals(avro(record), java.util.Arrays.copyOfRange(bytes, WireFormat.HEADER_SIZE, bytes.length),
                "after the header comes plain Avro binary, as Confluent writes it: the generated encoder writes "
                        + "what the generic writer does");
    }

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> byte[] roundTrip(T record, boolean isKey) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>((Class<T>) record.getClass());
        serde.configure(Map.of("schema.registry.url", "mock://" + SCOPE), isKey);
        byte[] bytes = serde.serializer().serialize("topic", record);
        assertEquals(record, serde.deserializer().deserialize("topic", bytes));
        return bytes;
    }

    @SuppressWarnings("unchecked")
    private static byte[] avro(SpecificRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
