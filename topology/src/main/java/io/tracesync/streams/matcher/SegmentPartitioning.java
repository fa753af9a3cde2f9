package io.tracesync.streams.matcher;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition of a segment: murmur2 of its segment key's UTF-8 bytes, as Kafka's default partitioner places a
 * String key. Writers that place every event so ({@code TraceTopicWriter} does) put a segment's send and receive in
 * the same partition number of their two nodes' topics, the same task; with {@code traces.partitioned.by.segment}
 * the application then matches them without repartitioning the events.
 */
public final class SegmentPartitioning {

    private SegmentPartitioning() {
    }

    /** The partition, among {@code partitions}, of the segment with this key ({@link TraceEventCheck#segmentKey}). */
    public static int partition(String segmentKey, int partitions) {
        return Utils.toPositive(Utils.murmur2(segmentKey.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** The segment key of an event's TCP fields, as {@link TraceEventCheck#segmentKey} gives it. */
    public static String key(long seq, long ackSeq, int flags) {
        return seq + ":" + ackSeq + ":" + flags;
    }
}
