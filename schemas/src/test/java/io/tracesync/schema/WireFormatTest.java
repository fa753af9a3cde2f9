package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class WireFormatTest {

    @Test
    void headerIsMagicZeroThenBigEndianId() {
        assertArrayEquals(new byte[] {0, 0x12, 0x34, 0x56, 0x78}, WireFormat.header(0x12345678));
        assertArrayEquals(new byte[] {0, -1, -1, -1, -1}, WireFormat.header(-1));
    }

    @Test
    void schemaIdReadsTheHeaderBack() {
        byte[] record = {0, 0, 0, 1, 2, 42, 43};
        assertEquals(258, WireFormat.schemaId(record));
        assertEquals(Integer.MAX_VALUE, WireFormat.schemaId(WireFormat.header(Integer.MAX_VALUE)));
    }

    @Test
    void wrongMagicByteIsNamed() {
        SerializationException e = assertThrows(SerializationException.class,
                () -> WireFormat.schemaId(new byte[] {1, 0, 0, 0, 1, 2}));
        assertTrue(e.getMessage().contains("magic byte 0x01"), e.getMessage());
    }

    @Test
    void recordShorterThanTheHeaderIsNamed() {
        SerializationException e = assertThrows(SerializationException.class,
                () -> WireFormat.schemaId(new byte[] {0, 0, 0}));
        assertTrue(e.getMessage().contains("3 bytes is shorter than the 5-byte header"), e.getMessage());
        assertThrows(SerializationException.class, () -> WireFormat.schemaId(new byte[0]));
    }
}
