package io.tracesync.streams.errors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/** Undecodable records go to the dead-letter topic with the reason, except while the registry is unavailable. */
public class DeserializationHandler extends LogAndContinueExceptionHandler {

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
            Exception exception) {
        if (RegistryOutage.isCause(exception, context.topic() + "-" + context.partition() + "@" + context.offset())) {
            return Response.fail();
        }
        return super.handleError(context, record, exception);
    }
}
