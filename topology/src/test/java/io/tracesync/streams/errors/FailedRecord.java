package io.tracesync.streams.errors;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;

/** Where a record failed, as Kafka Streams tells its error handlers: partition 2, offset 7 of topic {@code in}. */
record FailedRecord(byte[] key, byte[] value) implements ErrorHandlerContext {

    static final String TOPIC = "in";

    static FailedRecord of(String key, String value) {
        return new FailedRecord(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String topic() {
        return TOPIC;
    }

    @Override
    public int partition() {
        return 2;
    }

    @Override
    public long offset() {
        return 7;
    }

    @Override
    public Headers headers() {
        return new RecordHeaders();
    }

    @Override
    public String processorNodeId() {
        return "match";
    }

    @Override
    public TaskId taskId() {
        return new TaskId(1, 2);
    }

    @Override
    public long timestamp() {
        return 1000;
    }

    @Override
    public byte[] sourceRawKey() {
        return key;
    }

    @Override
    public byte[] sourceRawValue() {
        return value;
    }
}
