package io.tracesync.schema;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes generated Avro records in the Confluent wire format, with the id their schema has under the configured
 * subject (registered first when {@code auto.register.schemas}). Thread-safe once configured.
 *
 * <p>A record is written by its generated class's own encoder ({@code customEncode}, what Avro's
 * {@code SpecificData.setCustomCoders} selects) instead of the generic writer, which looks up every field by
 * position and resolves every union by the value's type; the bytes are the same (SpecificAvroSerdeRoundTripTest),
 * since a record is always written with its class's schema.
 */
public final class SpecificAvroSerializer<T extends SpecificRecord> implements Serializer<T> {

    private final Class<T> type;
    private final Schema schema;
    private final SpecificDatumWriter<T> writer;
    private volatile Configured configured;

    /** {@code ids}: the schema id by topic, so that a record costs no subject name nor registry-cache lookup. */
    private record Configured(SchemaRegistryClient registry, SubjectNameStrategy strategy, boolean autoRegister,
            boolean isKey, Map<String, Integer> ids) {

        int id(String topic, Schema schema) {
            Integer id = topic == null ? null : ids.get(topic);
            if (id == null) {
                String subject = strategy.subject(topic, isKey, schema);
                id = autoRegister ? registry.register(subject, schema) : registry.id(subject, schema);
                if (topic != null) {
                    ids.put(topic, id);
                }
            }
            return id;
        }
    }

    public SpecificAvroSerializer(Class<T> type) {
        this.type = type;
        SpecificData data = new SpecificData(type.getClassLoader());
        data.setCustomCoders(true);
        this.schema = data.getSchema(type);
        this.writer = new SpecificDatumWriter<>(schema, data);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        SerdeConfig config = SerdeConfig.parse(configs);
        configure(config, config.client(), isKey);
    }

    void configure(SerdeConfig config, SchemaRegistryClient registry, boolean isKey) {
        configured = new Configured(registry, config.strategy(isKey), config.autoRegister(), isKey,
                new ConcurrentHashMap<>());
    }

    /**
     * The schema id this serializer's records carry on {@code topic}: registered under the topic's subject first when
     * {@code auto.register.schemas}, else looked up. Cached, as is the schema by that id in the registry client.
     */
    public int schemaId(String topic) {
        return configured().id(topic, schema);
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        Configured c = configured();
        RecordBuffer out = RecordBuffer.empty();
        WireFormat.writeHeader(out, c.id(topic, schema));
        try {
            BinaryEncoder encoder = out.encoder();
            writer.write(data, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot write " + type.getSimpleName() + " to topic " + topic + ": "
                    + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    private Configured configured() {
        Configured c = configured;
        if (c == null) {
            throw new IllegalStateException("SpecificAvroSerializer<" + type.getSimpleName() + "> not configured");
        }
        return c;
    }
}
