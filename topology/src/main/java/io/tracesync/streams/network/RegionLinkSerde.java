package io.tracesync.streams.network;

import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.schema.WireFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A region task's stored links ({@link RegionLink}): a format byte {@value #FORMAT}, the forest's weight (8 bytes,
 * NaN: the rule's), then the summary's {@link NetworkInput} record as it came off the regions' topic — no Avro
 * written per summary applied. A value of the format before (the Confluent wire format of a {@link LinkSummary},
 * beginning with its magic byte 0, the weight in {@code forest_weight}) still reads.
 */
public final class RegionLinkSerde implements Serde<RegionLink> {

    static final byte FORMAT = 1;
    private static final int HEADER = 9;

    private final RegionInputSerde inputs;
    private final SpecificAvroSerde<LinkSummary> summaries;

    public RegionLinkSerde(RegionInputSerde inputs, SpecificAvroSerde<LinkSummary> summaries) {
        this.inputs = inputs;
        this.summaries = summaries;
    }

    @Override
    public Serializer<RegionLink> serializer() {
        return (topic, link) -> {
            if (link == null) {
                return null;
            }
            byte[] input = inputs.serializer().serialize(topic, link.input());
            byte[] out = new byte[HEADER + input.length];
            ByteBuffer.wrap(out).put(FORMAT).putDouble(link.forestWeight()).put(input);
            return out;
        };
    }

    @Override
    public Deserializer<RegionLink> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length > 0 && bytes[0] == WireFormat.MAGIC_BYTE) {
                LinkSummary s = summaries.deserializer().deserialize(topic, bytes);
                return new RegionLink(RegionInput.of(new NetworkInput(s, null)),
                        s.getForestWeight() == null ? Double.NaN : s.getForestWeight());
            }
            if (bytes.length < HEADER || bytes[0] != FORMAT) {
                throw new SerializationException("a region's stored link of " + bytes.length + " bytes is of no "
                        + "known format (first byte " + (bytes.length == 0 ? "none" : bytes[0]) + ")");
            }
            return new RegionLink(inputs.deserializer().deserialize(topic, Arrays.copyOfRange(bytes, HEADER,
                    bytes.length)), ByteBuffer.wrap(bytes, 1, 8).getDouble());
        };
    }
}
