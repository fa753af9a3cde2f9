package io.tracesync.schema;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/** Confluent's framing of a record: magic byte 0, the schema id (4 bytes, big-endian), then the Avro binary. */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /** The 5-byte header of a record written with schema {@code id}. */
    public static byte[] header(int id) {
        return ByteBuffer.allocate(HEADER_SIZE).put(MAGIC_BYTE).putInt(id).array();
    }

    /** Writes {@link #header(int)} into {@code out}, without an array of its own. */
    static void writeHeader(RecordBuffer out, int id) {
        out.write(MAGIC_BYTE);
        out.writeInt(id);
    }

    /** The schema id in the header of {@code record}; a SerializationException if the header is not Confluent's. */
    public static int schemaId(byte[] record) {
        if (record.length < HEADER_SIZE) {
            throw new SerializationException("record of " + record.length + " bytes is shorter than the "
                    + HEADER_SIZE + "-byte header (magic byte 0, 4-byte schema id)");
        }
        if (record[0] != MAGIC_BYTE) {
            throw new SerializationException(String.format(
                    "unknown magic byte 0x%02x (expected 0x00): not the Confluent wire format", record[0]));
        }
        return ByteBuffer.wrap(record, 1, 4).getInt();
    }
}
