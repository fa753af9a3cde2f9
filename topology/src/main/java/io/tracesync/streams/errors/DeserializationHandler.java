package io.tracesync.streams.errors;

import io.tracesync.streams.PipelineStats;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * Undecodable records go to the dead-letter topic with the reason in its headers, as Kafka's
 * {@code LogAndContinueExceptionHandler} builds them, and one line in the log ({@link DeadLetterLog}) instead of
 * its stack trace; except while the registry is unavailable.
 */
public class DeserializationHandler implements DeserializationExceptionHandler {

    private PipelineStats stats = new PipelineStats();
    private String deadLetters;
    private DeadLetterLog log;

    @Override
    public void configure(Map<String, ?> configs) {
        stats = PipelineStats.of(configs);
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        deadLetters = topic == null ? null : String.valueOf(topic);
        log = new DeadLetterLog(deadLetters);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
            Exception exception) {
        String where = context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        log.deadLetter(where, exception);
        List<ProducerRecord<byte[], byte[]>> records = ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(
                deadLetters, context.sourceRawKey(), context.sourceRawValue(), context, exception);
        stats.deadLetters.addAndGet(records.size());
        return Response.resume(records);
    }
}
