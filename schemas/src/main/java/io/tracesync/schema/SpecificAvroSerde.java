package io.tracesync.schema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro records in the Confluent wire format: byte 0, the schema id (4 bytes, big-endian), the Avro binary. Schemas
 * are registered under {@code <topic>-key} / {@code <topic>-value} (TopicNameStrategy) in the registry at
 * {@code schema.registry.url}; {@code mock://SCOPE} is an in-memory registry for tests.
 */
public final class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {

    private static final byte MAGIC = 0;

    private final Class<T> type;
    private final Schema schema;
    private final Map<Integer, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();
    private SchemaRegistry registry;
    private boolean isKey;

    public SpecificAvroSerde(Class<T> type) {
        this.type = type;
        this.schema = SpecificData.get().getSchema(type);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Object url = configs.get("schema.registry.url");
        if (url == null) {
            throw new IllegalArgumentException("schema.registry.url is not set");
        }
        this.registry = SchemaRegistry.at(url.toString());
        this.isKey = isKey;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> data == null ? null : encode(topic, data);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> bytes == null ? null : decode(bytes);
    }

    private byte[] encode(String topic, T data) {
        int id = registry.register(topic + (isKey ? "-key" : "-value"), schema);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(64);
            out.write(MAGIC);
            out.write(ByteBuffer.allocate(4).putInt(id).array());
            BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
            new SpecificDatumWriter<T>(schema).write(data, enc);
            enc.flush();
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot encode " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private T decode(byte[] bytes) {
        if (bytes.length < 5) {
            throw new SerializationException("record of " + bytes.length + " bytes is shorter than the 5-byte header");
        }
        if (bytes[0] != MAGIC) {
            throw new SerializationException(String.format("unknown magic byte 0x%02x", bytes[0]));
        }
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        SpecificDatumReader<T> reader = readers.computeIfAbsent(id, i -> new SpecificDatumReader<>(writer(i), schema));
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("truncated or invalid Avro for " + type.getSimpleName() + " (schema id "
                    + id + "): " + e, e);
        }
    }

    private Schema writer(int id) {
        Schema s = registry.schema(id);
        if (s == null) {
            throw new SerializationException("unknown schema id " + id);
        }
        return s;
    }
}
