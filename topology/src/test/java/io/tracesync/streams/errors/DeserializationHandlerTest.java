package io.tracesync.streams.errors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Response;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Result;
import org.junit.jupiter.api.Test;

class DeserializationHandlerTest {

    private final FailedRecord where = FailedRecord.of("k", "v");
    private final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(FailedRecord.TOPIC, 2, 7,
            where.key(), where.value());

    private static DeserializationHandler handler() {
        DeserializationHandler h = new DeserializationHandler();
        h.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq"));
        return h;
    }

    @Test
    void badBytesAreDeadLetteredWithTheReason() {
        Response r = handler().handleError(where, record, new SerializationException("unknown magic byte 7"));
        assertEquals(Result.RESUME, r.result());
        assertEquals(1, r.deadLetterQueueRecords().size());
        ProducerRecord<byte[], byte[]> dead = r.deadLetterQueueRecords().get(0);
        assertEquals("dlq", dead.topic());
        assertArrayEquals(where.value(), dead.value());
        assertEquals("unknown magic byte 7", new String(dead.headers().lastHeader("__streams.errors.message").value(),
                StandardCharsets.UTF_8));
    }

    @Test
    void anUnavailableRegistryFailsTheThreadAndDeadLettersNothing() {
        Response r = handler().handleError(where, record, new SerializationException("cannot decode",
                new SchemaRegistryUnavailableException("no schema registry reachable", null)));
        assertEquals(Result.FAIL, r.result());
        assertTrue(r.deadLetterQueueRecords().isEmpty());
    }
}
