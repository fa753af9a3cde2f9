package io.tracesync.streams.matcher;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.errors.InvalidTraceEventException;
import java.time.Duration;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Checks each input event ({@link TraceEventCheck}, then its node's clock, {@link NodeClocks}) and keys it by the
 * segment key it is matched by. When the inputs are said to be partitioned by segment ({@code partitions} &gt; 0),
 * an event found in another partition than {@link SegmentPartitioning} gives is refused: its send or receive would
 * wait in another task and never be matched.
 */
public final class SegmentKeying extends ContextualProcessor<SegmentKey, TraceEvent, String, TraceEvent> {

    private final TraceEventCheck check;
    private final String clockStore;
    private final Duration maxClockJump;
    private final int partitions;
    private NodeClocks clocks;

    /** {@code partitions}: the inputs' partition count when they are partitioned by segment, else 0. */
    public SegmentKeying(TraceEventCheck check, String clockStore, Duration maxClockJump, int partitions) {
        this.check = check;
        this.clockStore = clockStore;
        this.maxClockJump = maxClockJump;
        this.partitions = partitions;
    }

    @Override
    public void init(ProcessorContext<String, TraceEvent> context) {
        super.init(context);
        clocks = new NodeClocks(context.getStateStore(clockStore), maxClockJump);
    }

    @Override
    public void process(Record<SegmentKey, TraceEvent> record) {
        RecordMetadata where = context().recordMetadata().orElse(null);
        String key = check.segmentKey(where == null ? null : where.topic(), record.key(), record.value());
        if (partitions > 0 && where != null) {
            int expected = SegmentPartitioning.partition(key, partitions);
            if (where.partition() != expected) {
                throw new InvalidTraceEventException("segment " + key + " in partition " + where.partition() + " of "
                        + where.topic() + ", not " + expected + " of " + partitions
                        + " as traces.partitioned.by.segment requires");
            }
        }
        clocks.check(record.value().getNode(), record.value().getTsNs());
        context().forward(record.withKey(key));
    }
}
