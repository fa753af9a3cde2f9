package io.tracesync.streams.errors;

import io.tracesync.streams.PipelineStats;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/** Undecodable records go to the dead-letter topic with the reason, except while the registry is unavailable. */
public class DeserializationHandler extends LogAndContinueExceptionHandler {

    private PipelineStats stats = new PipelineStats();

    @Override
    public void configure(Map<String, ?> configs) {
        super.configure(configs);
        stats = PipelineStats.of(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
            Exception exception) {
        if (RegistryOutage.isCause(exception, context.topic() + "-" + context.partition() + "@" + context.offset())) {
            return Response.fail();
        }
        Response response = super.handleError(context, record, exception);
        stats.deadLetters.addAndGet(response.deadLetterQueueRecords().size());
        return response;
    }
}
