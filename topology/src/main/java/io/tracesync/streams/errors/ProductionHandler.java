package io.tracesync.streams.errors;

import io.tracesync.streams.PipelineStats;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * A record the application could not write (too large for its topic, not serializable): one line in the log
 * ({@link DeadLetterLog}), a dead letter with the reason and the input that led to it, and processing goes on —
 * where Kafka's default handler fails the thread, and for a record written by a punctuation cannot even build its
 * dead letter (it has no timestamp), so that a replaced thread meets the same error again and again. Transient
 * broker errors are retried, an unavailable registry fails the thread until it is back ({@link RegistryOutage}), and
 * a dead letter that cannot be written is logged, not dead-lettered again.
 */
public class ProductionHandler implements ProductionExceptionHandler {

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
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
            Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        return deadLetter(context, record.topic(), exception);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record,
            Exception exception, SerializationExceptionOrigin origin) {
        String where = "writing to " + record.topic();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        return deadLetter(context, record.topic(), exception);
    }

    private Response deadLetter(ErrorHandlerContext context, String topic, Exception exception) {
        String where = context.topic() == null
                ? "a write to " + topic + " by " + context.processorNodeId() + " outside any input record"
                : "a write to " + topic + " for " + context.topic() + "-" + context.partition() + "@"
                        + context.offset();
        log.deadLetter(where, exception);
        if (topic.equals(deadLetters)) {
            return Response.resume(); // the dead-letter topic itself refused it: logged above, not sent again
        }
        List<ProducerRecord<byte[], byte[]>> records = ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(
                deadLetters, context.sourceRawKey(), context.sourceRawValue(), StampedContext.of(context), exception);
        stats.deadLetters.addAndGet(records.size());
        return Response.resume(records);
    }
}
