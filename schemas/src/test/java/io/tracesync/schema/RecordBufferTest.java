package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class RecordBufferTest {

    @Property(tries = 200)
    void writesWhatAStreamWould(@ForAll @Size(max = 20) int[] sizes, @ForAll int header, @ForAll long seed)
            throws IOException {
        Random random = new Random(seed);
        for (int size : sizes) {
            byte[] record = new byte[Math.abs(size % 5000)];
            random.nextBytes(record);
            RecordBuffer buffer = RecordBuffer.empty();
            buffer.writeInt(header);
            buffer.write(record, 0, record.length);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(new byte[] {(byte) (header >>> 24), (byte) (header >>> 16), (byte) (header >>> 8),
                    (byte) header});
            expected.write(record);
            assertArrayEquals(expected.toByteArray(), buffer.toByteArray(), "each record alone, whatever came before");
        }
    }

    @Property(tries = 50)
    void encodesAsAvrosOwnEncoder(@ForAll @Size(max = 50) long[] values, @ForAll @IntRange(max = 3) int repeats)
            throws IOException {
        for (int r = 0; r <= repeats; r++) {
            RecordBuffer buffer = RecordBuffer.empty();
            BinaryEncoder encoder = buffer.encoder();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder expected = EncoderFactory.get().binaryEncoder(out, null);
            for (long v : values) {
                encoder.writeLong(v);
                encoder.writeString("v" + v);
                expected.writeLong(v);
                expected.writeString("v" + v);
            }
            encoder.flush();
            expected.flush();
            assertArrayEquals(out.toByteArray(), buffer.toByteArray());
        }
    }

    @Test
    void aLargeRecordLeavesNothingBehind() {
        RecordBuffer large = RecordBuffer.empty();
        byte[] bytes = new byte[3 << 20];
        new Random(1).nextBytes(bytes);
        large.write(bytes, 0, bytes.length);
        assertArrayEquals(bytes, large.toByteArray());
        RecordBuffer next = RecordBuffer.empty();
        next.write(7);
        byte[] copy = next.toByteArray();
        assertArrayEquals(new byte[] {7}, copy);
        assertNotSame(copy, next.toByteArray(), "every record gets its own array");
    }
}
