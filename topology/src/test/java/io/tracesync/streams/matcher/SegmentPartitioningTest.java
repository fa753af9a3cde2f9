package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;

/** A segment's partition is where Kafka's default partitioner puts its String key (so the repartition agrees). */
class SegmentPartitioningTest {

    @Property(tries = 2000)
    void theDefaultPartitionerPlacesTheSegmentKeyThere(@ForAll @LongRange(max = 0xFFFF_FFFFL) long seq,
            @ForAll @LongRange(max = 0xFFFF_FFFFL) long ackSeq, @ForAll @IntRange(max = 255) int flags,
            @ForAll @IntRange(min = 1, max = 512) int partitions) {
        String key = SegmentPartitioning.key(seq, ackSeq, flags);
        assertEquals(BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions),
                SegmentPartitioning.partition(key, partitions));
    }

    @Property(tries = 200)
    void theKeyIsTheMatchersKey(@ForAll @LongRange(max = 0xFFFF_FFFFL) long seq,
            @ForAll @LongRange(max = 0xFFFF_FFFFL) long ackSeq, @ForAll @IntRange(max = 255) int flags) {
        assertEquals(seq + ":" + ackSeq + ":" + flags, SegmentPartitioning.key(seq, ackSeq, flags));
    }
}
