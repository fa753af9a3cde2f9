package io.tracesync.streams.errors;

import io.tracesync.streams.metrics.PipelineStats;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * What the exception handlers share: the dead-letter topic ({@code errors.dead.letter.queue.topic.name}), a line
 * in the log per dead letter ({@link DeadLetterLog}), the records built as Kafka's own {@code LogAndContinue…}
 * handlers build them — the input record that failed, the reason in the headers — and counted.
 */
abstract class DeadLetters implements Configurable {

    PipelineStats stats = new PipelineStats();
    /** The dead-letter topic, or null when none is configured. */
    String topic;
    private DeadLetterLog log;

    @Override
    public void configure(Map<String, ?> configs) {
        stats = PipelineStats.of(configs);
        Object name = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        topic = name == null ? null : String.valueOf(name);
        log = new DeadLetterLog(topic);
    }

    /** The dead letters of the failure at {@code where} (none without a dead-letter topic), logged and counted. */
    List<ProducerRecord<byte[], byte[]>> deadLetters(String where, ErrorHandlerContext context, Exception e) {
        log.deadLetter(where, e);
        List<ProducerRecord<byte[], byte[]>> records = ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(topic,
                context.sourceRawKey(), context.sourceRawValue(), StampedContext.of(context), e);
        stats.deadLetters.addAndGet(records.size());
        return records;
    }
}
