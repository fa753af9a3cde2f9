package io.tracesync.streams.errors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.Result;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class ProcessingHandlerTest {

    private final FailedRecord where = FailedRecord.of("k", "v");
    private final Record<String, String> record = new Record<>("k", "v", 1000);

    private static ProcessingHandler handler() {
        ProcessingHandler h = new ProcessingHandler();
        h.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq"));
        return h;
    }

    @Test
    void rejectedRecordsAreDeadLettered() {
        Response r = handler().handleError(where, record, new IllegalArgumentException("node sends to itself"));
        assertEquals(Result.RESUME, r.result());
        assertEquals(1, r.deadLetterQueueRecords().size());
        assertArrayEquals(where.value(), r.deadLetterQueueRecords().get(0).value());
    }

    @Test
    void aStoreOrSerdeMeetingAnUnavailableRegistryIsRetried() {
        Response r = handler().handleError(where, record,
                new SchemaRegistryUnavailableException("schema registry answered 503", null));
        assertEquals(Result.FAIL, r.result());
        assertTrue(r.deadLetterQueueRecords().isEmpty());
        assertEquals(Result.RESUME, handler().handleError(where, record,
                new SerializationException("schema id 9 not found")).result());
    }
}
