package io.tracesync.streams.matcher;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import java.time.Duration;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Checks each input event ({@link TraceEventCheck}, then its node's clock, {@link NodeClocks}) and keys it by the
 * segment key it is matched by.
 */
public final class SegmentKeying extends ContextualProcessor<SegmentKey, TraceEvent, String, TraceEvent> {

    private final TraceEventCheck check;
    private final String clockStore;
    private final Duration maxClockJump;
    private NodeClocks clocks;

    public SegmentKeying(TraceEventCheck check, String clockStore, Duration maxClockJump) {
        this.check = check;
        this.clockStore = clockStore;
        this.maxClockJump = maxClockJump;
    }

    @Override
    public void init(ProcessorContext<String, TraceEvent> context) {
        super.init(context);
        clocks = new NodeClocks(context.getStateStore(clockStore), maxClockJump);
    }

    @Override
    public void process(Record<SegmentKey, TraceEvent> record) {
        String topic = context().recordMetadata().map(RecordMetadata::topic).orElse(null);
        String key = check.segmentKey(topic, record.key(), record.value());
        clocks.check(record.value().getNode(), record.value().getTsNs());
        context().forward(record.withKey(key));
    }
}
