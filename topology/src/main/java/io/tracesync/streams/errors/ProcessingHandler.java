package io.tracesync.streams.errors;

import io.tracesync.streams.PipelineStats;
import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Records a processor rejects go to the dead-letter topic with the reason, except when the processor failed for an
 * unavailable registry (a store or an output serde meeting a new schema id).
 */
public class ProcessingHandler extends LogAndContinueProcessingExceptionHandler {

    private PipelineStats stats = new PipelineStats();

    @Override
    public void configure(Map<String, ?> configs) {
        super.configure(configs);
        stats = PipelineStats.of(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String where = context.topic() == null ? "a punctuation of " + context.processorNodeId()
                : context.processorNodeId() + " " + context.topic() + "-" + context.partition() + "@" + context.offset();
        if (RegistryOutage.isCause(exception, where)) {
            return Response.fail();
        }
        Response response = super.handleError(context, record, exception);
        stats.deadLetters.addAndGet(response.deadLetterQueueRecords().size());
        return response;
    }
}
