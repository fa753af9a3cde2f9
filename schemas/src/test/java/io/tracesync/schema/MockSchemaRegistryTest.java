package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.SegmentKey;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class MockSchemaRegistryTest {

    private final String scope = UUID.randomUUID().toString();

    @Test
    void scopesAreSharedUntilDropped() {
        MockSchemaRegistry r = MockSchemaRegistry.scope(scope);
        assertSame(r, MockSchemaRegistry.scope(scope));
        r.register("s", LinkId.getClassSchema());
        MockSchemaRegistry.drop(scope);
        MockSchemaRegistry fresh = MockSchemaRegistry.scope(scope);
        assertNotSame(r, fresh);
        assertTrue(fresh.subjects().isEmpty());
        MockSchemaRegistry.drop(scope);
    }

    @Test
    void idsAreGlobalAndStable() {
        MockSchemaRegistry r = MockSchemaRegistry.scope(scope);
        int a = r.register("a-key", LinkId.getClassSchema());
        int b = r.register("b-key", SegmentKey.getClassSchema());
        assertEquals(a, r.register("c-key", LinkId.getClassSchema()));
        assertEquals(a, r.register("a-key", LinkId.getClassSchema()));
        assertEquals(b, r.id("b-key", SegmentKey.getClassSchema()));
        assertEquals(LinkId.getClassSchema(), r.schema(a));
        assertEquals(List.of(LinkId.getClassSchema()), r.subjects().get("a-key"));
        MockSchemaRegistry.drop(scope);
    }

    @Test
    void unknownsAreSerializationErrors() {
        MockSchemaRegistry r = MockSchemaRegistry.scope(scope);
        r.register("a-key", LinkId.getClassSchema());
        assertThrows(SerializationException.class, () -> r.schema(7));
        assertThrows(SerializationException.class, () -> r.id("nope", LinkId.getClassSchema()));
        assertThrows(SerializationException.class, () -> r.id("a-key", SegmentKey.getClassSchema()));
        MockSchemaRegistry.drop(scope);
    }
}
