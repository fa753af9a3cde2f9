package io.tracesync.streams.matcher;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Checks each input event ({@link TraceEventCheck}) and keys it by the segment key it is matched by. */
public final class SegmentKeying extends ContextualProcessor<SegmentKey, TraceEvent, String, TraceEvent> {

    private final TraceEventCheck check;

    public SegmentKeying(TraceEventCheck check) {
        this.check = check;
    }

    @Override
    public void process(Record<SegmentKey, TraceEvent> record) {
        String topic = context().recordMetadata().map(RecordMetadata::topic).orElse(null);
        context().forward(record.withKey(check.segmentKey(topic, record.key(), record.value())));
    }
}
