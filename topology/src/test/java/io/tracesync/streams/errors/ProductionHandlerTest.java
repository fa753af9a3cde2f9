package io.tracesync.streams.errors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.junit.jupiter.api.Test;

class ProductionHandlerTest {

    private static final Map<String, String> CONFIG = Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
            "dlq");
    private static final FailedRecord PUNCTUATION = FailedRecord.punctuation();
    private final ProducerRecord<byte[], byte[]> snapshot = new ProducerRecord<>("sync.tree", new byte[1],
            new byte[2 << 20]);

    private static ProductionHandler handler() {
        ProductionHandler h = new ProductionHandler();
        h.configure(CONFIG);
        return h;
    }

    @Test
    void aRecordTooLargeWrittenByAPunctuationIsDeadLetteredAndProcessingGoesOn() {
        long before = System.currentTimeMillis();
        Response r = handler().handleError(PUNCTUATION, snapshot, new RecordTooLargeException("1113413 bytes"));
        assertEquals(Result.RESUME, r.result());
        assertEquals(1, r.deadLetterQueueRecords().size());
        ProducerRecord<byte[], byte[]> letter = r.deadLetterQueueRecords().get(0);
        assertEquals("dlq", letter.topic());
        assertTrue(letter.timestamp() >= before, "stamped with the wall clock: " + letter.timestamp());
        assertEquals(RecordTooLargeException.class.getName(), new String(letter.headers()
                .lastHeader(ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_NAME).value(), StandardCharsets.UTF_8));
    }

    /** Why the application has a handler of its own: Kafka's default cannot dead-letter this at all. */
    @Test
    void kafkasDefaultHandlerCannotDeadLetterAWriteOutsideAnInputRecord() {
        DefaultProductionExceptionHandler kafkas = new DefaultProductionExceptionHandler();
        kafkas.configure(CONFIG);
        assertThrows(IllegalArgumentException.class, () -> kafkas.handleError(PUNCTUATION, snapshot,
                new RecordTooLargeException("1113413 bytes")));
    }

    @Test
    void aWriteForAnInputRecordCarriesThatRecordAndItsTime() {
        FailedRecord input = FailedRecord.of("k", "v");
        Response r = handler().handleError(input, snapshot, new RecordTooLargeException("too large"));
        assertEquals(Result.RESUME, r.result());
        assertArrayEquals(input.value(), r.deadLetterQueueRecords().get(0).value());
        assertEquals(input.timestamp(), r.deadLetterQueueRecords().get(0).timestamp());
    }

    @Test
    void transientBrokerErrorsAreRetriedAnUnavailableRegistryFailsADeadLetterIsNotDeadLetteredAgain() {
        ProductionHandler retrying = handler();
        assertEquals(Result.RETRY, retrying.handleError(PUNCTUATION, snapshot,
                new NotEnoughReplicasException("1 of 3")).result());
        assertEquals(1, retrying.stats.retriedWrites.get(), "counted (tracesync_writes_retried_total)");
        assertEquals(Result.FAIL, handler().handleSerializationError(PUNCTUATION, snapshot,
                new SchemaRegistryUnavailableException("schema registry answered 503", null),
                SerializationExceptionOrigin.VALUE).result());
        Response toDlq = handler().handleError(PUNCTUATION, new ProducerRecord<>("dlq", new byte[1], new byte[1]),
                new RecordTooLargeException("too large"));
        assertEquals(Result.RESUME, toDlq.result());
        assertTrue(toDlq.deadLetterQueueRecords().isEmpty());
    }
}
