package io.tracesync.streams.errors;

import io.tracesync.streams.PipelineStats;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Records a processor rejects go to the dead-letter topic with the reason in its headers, as Kafka's
 * {@code LogAndContinueProcessingExceptionHandler} builds them, and one line in the log ({@link DeadLetterLog});
 * except when the processor failed for an unavailable registry (a store or an output serde meeting a new schema
 * id).
 */
public class ProcessingHandler implements ProcessingExceptionHandler {

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
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String where = context.topic() == null ? "a punctuation of " + context.processorNodeId()
                : context.processorNodeId() + " " + context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        log.deadLetter(where, exception);
        List<ProducerRecord<byte[], byte[]>> records = ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(
                deadLetters, context.sourceRawKey(), context.sourceRawValue(), StampedContext.of(context), exception);
        stats.deadLetters.addAndGet(records.size());
        return Response.resume(records);
    }
}
