package io.tracesync.streams.errors;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;

/**
 * Where a record failed, as Kafka Streams tells its error handlers: partition 2, offset 7 of topic {@code in} at
 * time 1000 in processor {@code match}; or, for a write made by the network's punctuation, no input record at all.
 */
record FailedRecord(String topic, long timestamp, String processorNodeId, byte[] key, byte[] value)
        implements ErrorHandlerContext {

    static final String TOPIC = "in";

    static FailedRecord of(String key, String value) {
        return new FailedRecord(TOPIC, 1000, "match", key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    /** What Kafka Streams tells the handler about a write made by a punctuation: no input record, no time. */
    static FailedRecord punctuation() {
        return new FailedRecord(null, -1, "network", null, null);
    }

    @Override
    public int partition() {
        return topic == null ? -1 : 2;
    }

    @Override
    public long offset() {
        return topic == null ? -1 : 7;
    }

    @Override
    public Headers headers() {
        return new RecordHeaders();
    }

    @Override
    public TaskId taskId() {
        return new TaskId(1, 2);
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
