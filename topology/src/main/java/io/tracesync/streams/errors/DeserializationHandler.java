package io.tracesync.streams.errors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * Undecodable records go to the dead-letter topic with the reason in its headers, as Kafka's
 * {@code LogAndContinueExceptionHandler} builds them, and one line in the log ({@link DeadLetterLog}) instead of
 * its stack trace; except while the registry is unavailable.
 */
public class DeserializationHandler extends DeadLetters implements DeserializationExceptionHandler {

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
            Exception exception) {
        String where = context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        return Response.resume(deadLetters(where, context, exception));
    }
}
