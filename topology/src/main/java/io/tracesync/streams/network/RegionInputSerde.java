package io.tracesync.streams.network;

import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.schema.WireFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * {@link NetworkInput} records of the regions' topic as {@link RegionInput}: a link's summary left as written with its
 * names located — the Avro binary of a record whose writer schema begins with the summary's union, the summary with
 * its names a and b, holds the union's branch as a varint, then each name as a varint length and its UTF-8 bytes —,
 * a summary of a schema of another layout read and written again with the current one, a factor read at once. A
 * record as written is written again as it is.
 */
public final class RegionInputSerde implements Serde<RegionInput> {

    private final SpecificAvroSerde<NetworkInput> inner;
    private final SpecificAvroDeserializer<NetworkInput> reader;
    /** Per writer schema id: whether its records begin with the summary's names. */
    private final Map<Integer, Boolean> namesFirst = new ConcurrentHashMap<>();
    /** Per topic, the one reader its records as written share (a function per record: 49 MB at 250,000 nodes). */
    private final Map<String, Function<byte[], NetworkInput>> readers = new ConcurrentHashMap<>();

    public RegionInputSerde(SpecificAvroSerde<NetworkInput> inner) {
        this.inner = inner;
        this.reader = inner.deserializer();
    }

    @Override
    public Serializer<RegionInput> serializer() {
        return (topic, in) -> in == null ? null
                : in.encoded() != null ? in.encoded() : inner.serializer().serialize(topic, in.value());
    }

    @Override
    public Deserializer<RegionInput> deserializer() {
        return this::read;
    }

    private RegionInput read(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (namesFirst(bytes)) {
            return located(topic, bytes);
        }
        NetworkInput in = reader.deserialize(topic, bytes);
        if (in.getSummary() == null) {
            return RegionInput.of(in);
        }
        // a summary written with a schema of another layout: written again with the current one
        byte[] current = inner.serializer().serialize(topic, in);
        if (!namesFirst(current)) {
            throw new IllegalStateException("NetworkInput's schema no longer begins with the summary's names");
        }
        return located(topic, current);
    }

    private boolean namesFirst(byte[] bytes) {
        int id = WireFormat.schemaId(bytes);
        Boolean layout = namesFirst.get(id);
        return layout != null ? layout : namesFirst.computeIfAbsent(id, i -> namesFirst(reader.writerSchema(bytes)));
    }

    /** A record of a schema whose names come first: a summary as written with its names located, else read. */
    private RegionInput located(String topic, byte[] bytes) {
        try {
            int[] at = {WireFormat.HEADER_SIZE};
            if (varint(bytes, at) == 1) {
                int aLength = length(bytes, at);
                int aStart = at[0];
                at[0] += aLength;
                int bLength = length(bytes, at);
                int bStart = at[0];
                Function<byte[], NetworkInput> read = readers.computeIfAbsent(topic == null ? "" : topic,
                        t -> b -> reader.deserialize(topic, b));
                return RegionInput.summary(bytes, read, aStart, aStart + aLength, bStart, bStart + bLength);
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new SerializationException("record of topic " + topic + " ends inside its summary's names");
        }
        return RegionInput.of(reader.deserialize(topic, bytes));
    }

    /** Whether records of {@code writer} begin with the summary's union, the summary with its names a and b. */
    static boolean namesFirst(Schema writer) {
        if (writer.getType() != Schema.Type.RECORD || writer.getFields().isEmpty()) {
            return false;
        }
        Schema first = writer.getFields().get(0).schema();
        if (first.getType() != Schema.Type.UNION || first.getTypes().size() != 2
                || first.getTypes().get(0).getType() != Schema.Type.NULL) {
            return false;
        }
        Schema summary = first.getTypes().get(1);
        if (summary.getType() != Schema.Type.RECORD
                || !summary.getFullName().equals(LinkSummary.getClassSchema().getFullName())
                || summary.getFields().size() < 2) {
            return false;
        }
        List<Schema.Field> fields = summary.getFields();
        return fields.get(0).name().equals("a") && fields.get(0).schema().getType() == Schema.Type.STRING
                && fields.get(1).name().equals("b") && fields.get(1).schema().getType() == Schema.Type.STRING;
    }

    /** A string's length, its varint read at {@code at[0]}, which moves past it. */
    private static int length(byte[] bytes, int[] at) {
        long n = varint(bytes, at);
        if (n < 0 || n > bytes.length - at[0]) {
            throw new SerializationException("a summary's name of " + n + " bytes in a record of " + bytes.length);
        }
        return (int) n;
    }

    /** Avro's zig-zag varint long at {@code at[0]}, which moves past it. */
    private static long varint(byte[] bytes, int[] at) {
        long v = 0;
        int shift = 0;
        byte b;
        do {
            b = bytes[at[0]++];
            v |= (long) (b & 0x7F) << shift;
            shift += 7;
        } while (b < 0 && shift < 64);
        return v >>> 1 ^ -(v & 1);
    }
}
