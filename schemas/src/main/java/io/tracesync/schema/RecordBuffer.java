package io.tracesync.schema;

import java.io.OutputStream;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * A thread's buffer for the records it writes, kept between records with its encoder: a record is encoded into it
 * and copied out once at its size. {@link java.io.ByteArrayOutputStream}, new for each record, grew from its first
 * size by copies and took a lock for every field the encoder wrote.
 */
final class RecordBuffer extends OutputStream {

    private static final ThreadLocal<RecordBuffer> BUFFERS = ThreadLocal.withInitial(RecordBuffer::new);
    private static final int INITIAL = 512;
    /** A buffer grown beyond this for a large record (a tree snapshot) is not kept. */
    private static final int KEPT = 1 << 20;

    private byte[] bytes = new byte[INITIAL];
    private int size;
    private BinaryEncoder encoder;

    /** The calling thread's buffer, emptied. */
    static RecordBuffer empty() {
        RecordBuffer buffer = BUFFERS.get();
        buffer.size = 0;
        if (buffer.bytes.length > KEPT) {
            buffer.bytes = new byte[INITIAL];
        }
        return buffer;
    }

    /** An encoder that writes into this buffer as it is given. */
    BinaryEncoder encoder() {
        encoder = EncoderFactory.get().directBinaryEncoder(this, encoder);
        return encoder;
    }

    @Override
    public void write(int b) {
        room(1);
        bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    /** Writes {@code v} as 4 bytes, big-endian. */
    void writeInt(int v) {
        room(4);
        bytes[size++] = (byte) (v >>> 24);
        bytes[size++] = (byte) (v >>> 16);
        bytes[size++] = (byte) (v >>> 8);
        bytes[size++] = (byte) v;
    }

    /** What was written since {@link #empty()}. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void room(int n) {
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + n));
        }
    }
}
