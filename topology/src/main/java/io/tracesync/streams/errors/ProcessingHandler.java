package io.tracesync.streams.errors;

import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Records a processor rejects go to the dead-letter topic with the reason, except when the processor failed for an
 * unavailable registry (a store or an output serde meeting a new schema id).
 */
public class ProcessingHandler extends LogAndContinueProcessingExceptionHandler {

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String where = context.topic() == null ? "a punctuation of " + context.processorNodeId()
                : context.processorNodeId() + " " + context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        return super.handleError(context, record, exception);
    }
}
