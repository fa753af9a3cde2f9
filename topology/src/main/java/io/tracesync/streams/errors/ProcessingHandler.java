package io.tracesync.streams.errors;

import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Records a processor rejects go to the dead-letter topic with the reason in its headers, as Kafka's
 * {@code LogAndContinueProcessingExceptionHandler} builds them, and one line in the log ({@link DeadLetterLog});
 * except when the processor failed for an unavailable registry (a store or an output serde meeting a new schema
 * id).
 */
public class ProcessingHandler extends DeadLetters implements ProcessingExceptionHandler {

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String where = context.topic() == null ? "a punctuation of " + context.processorNodeId()
                : context.processorNodeId() + " " + context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        return Response.resume(deadLetters(where, context, exception));
    }
}
