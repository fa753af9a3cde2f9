package io.tracesync.streams.errors;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;

/**
 * An error's context with a timestamp a dead-letter record can carry: outside any input record (a punctuation, a
 * store's write-back at a commit) Kafka Streams gives {@code -1}, which a {@code ProducerRecord} refuses, so the
 * dead letter is stamped with the wall clock instead.
 */
record StampedContext(ErrorHandlerContext context, long timestamp) implements ErrorHandlerContext {

    static ErrorHandlerContext of(ErrorHandlerContext context) {
        return context.timestamp() >= 0 ? context : new StampedContext(context, System.currentTimeMillis());
    }

    @Override
    public String topic() {
        return context.topic();
    }

    @Override
    public int partition() {
        return context.partition();
    }

    @Override
    public long offset() {
        return context.offset();
    }

    @Override
    public Headers headers() {
        return context.headers();
    }

    @Override
    public String processorNodeId() {
        return context.processorNodeId();
    }

    @Override
    public TaskId taskId() {
        return context.taskId();
    }

    @Override
    public byte[] sourceRawKey() {
        return context.sourceRawKey();
    }

    @Override
    public byte[] sourceRawValue() {
        return context.sourceRawValue();
    }
}
