package io.tracesync.streams.errors;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record the application could not write (too large for its topic, not serializable): one line in the log
 * ({@link DeadLetterLog}), a dead letter with the reason and the input that led to it, and processing goes on —
 * where Kafka's default handler fails the thread, and for a record written by a punctuation cannot even build its
 * dead letter (it has no timestamp), so that a replaced thread meets the same error again and again. Transient
 * broker errors are retried, an unavailable registry fails the thread until it is back ({@link RegistryOutage}), and
 * a dead letter that cannot be written is logged, not dead-lettered again. Under exactly_once_v2 the producer's
 * transaction cannot commit after a failed write whatever the answer: the task restarts from its last commit.
 */
public class ProductionHandler extends DeadLetters implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ProductionHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
            Exception exception) {
        if (exception instanceof RetriableException) {
            stats.retriedWrites.incrementAndGet();
            return Response.retry();
        }
        return deadLetter(context, record.topic(), exception);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record,
            Exception exception, SerializationExceptionOrigin origin) {
        if (RegistryOutage.isCause(exception, "a write to " + record.topic())) {
            return Response.fail();
        }
        return deadLetter(context, record.topic(), exception);
    }

    private Response deadLetter(ErrorHandlerContext context, String written, Exception exception) {
        String where = context.topic() == null
                ? "a write to " + written + " by " + context.processorNodeId() + " outside any input record"
                : "a write to " + written + " for " + context.topic() + "-" + context.partition() + "@"
                        + context.offset();
        if (written.equals(topic)) {
            LOG.warn("the dead-letter topic {} refused a dead letter; left out: {}", topic, exception.toString());
            return Response.resume();
        }
        return Response.resume(deadLetters(where, context, exception));
    }
}
