package io.tracesync.schema;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Generated Avro records in the Confluent wire format (magic byte 0, 4-byte big-endian schema id, Avro binary),
 * byte-compatible with Confluent's KafkaAvroSerializer and KafkaAvroDeserializer. {@link #configure} takes
 * Confluent's keys (see {@link SerdeConfig}); {@code schema.registry.url=mock://SCOPE} is an in-memory registry for
 * tests. The serializer and deserializer share one registry client.
 */
public final class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {

    private final SpecificAvroSerializer<T> serializer;
    private final SpecificAvroDeserializer<T> deserializer;

    public SpecificAvroSerde(Class<T> type) {
        this.serializer = new SpecificAvroSerializer<>(type);
        this.deserializer = new SpecificAvroDeserializer<>(type);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        SerdeConfig config = SerdeConfig.parse(configs);
        SchemaRegistryClient registry = config.client();
        serializer.configure(config, registry, isKey);
        deserializer.configure(registry);
    }

    /**
     * The schema id of this serde's records on {@code topic} (see {@link SpecificAvroSerializer#schemaId}). The
     * deserializer shares the registry client, so records of that id then read without asking the registry.
     */
    public int schemaId(String topic) {
        return serializer.schemaId(topic);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public SpecificAvroDeserializer<T> deserializer() {
        return deserializer;
    }
}
