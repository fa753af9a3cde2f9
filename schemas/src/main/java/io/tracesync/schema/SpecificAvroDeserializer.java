package io.tracesync.schema;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.FastReaderBuilder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-wire-format records into a generated class: the writer's schema comes from the registry by the
 * id in the header, and Avro resolves it against the class' schema, so data written with an older compatible schema
 * reads into the current class. Thread-safe once configured.
 */
public final class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    private final Class<T> type;
    /**
     * Avro's reader compiled per writer schema: about half the time per record of the interpreting
     * ResolvingDecoder, same resolution rules (what {@code SpecificData.setFastReaderEnabled} selects, which Avro
     * 1.12 refuses for a subclass of its data model such as ours).
     */
    private final FastReaderBuilder compiler;
    private final Schema schema;
    private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();
    private volatile SchemaRegistryClient registry;

    public SpecificAvroDeserializer(Class<T> type) {
        this.type = type;
        SpecificData data = new ConstructingSpecificData(type.getClassLoader());
        this.compiler = new FastReaderBuilder(data);
        this.schema = data.getSchema(type);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        SerdeConfig config = SerdeConfig.parse(configs);
        configure(config.client());
    }

    void configure(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        int id = WireFormat.schemaId(bytes);
        DatumReader<T> reader = readers.get(id);
        if (reader == null) {
            reader = readers.computeIfAbsent(id, this::compiledReader);
        }
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, WireFormat.HEADER_SIZE,
                bytes.length - WireFormat.HEADER_SIZE, null);
        T record;
        boolean trailing;
        try {
            record = reader.read(null, decoder);
            trailing = !decoder.isEnd();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot read " + type.getSimpleName() + " from topic " + topic
                    + " (schema id " + id + "): truncated or not this schema's Avro: " + e, e);
        }
        if (trailing) {
            throw new SerializationException("record of topic " + topic + " has bytes after its "
                    + type.getSimpleName() + " (schema id " + id + ")");
        }
        return record;
    }

    private DatumReader<T> compiledReader(int id) {
        Schema writer = writerSchema(id);
        try {
            return compiler.createDatumReader(writer, schema);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("schema id " + id + " cannot be read as " + type.getSimpleName() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The schema {@code record} was written with, by the id in its header. */
    public Schema writerSchema(byte[] record) {
        return writerSchema(WireFormat.schemaId(record));
    }

    private Schema writerSchema(int id) {
        SchemaRegistryClient r = registry;
        if (r == null) {
            throw new IllegalStateException("SpecificAvroDeserializer<" + type.getSimpleName() + "> not configured");
        }
        return r.schema(id);
    }
}
