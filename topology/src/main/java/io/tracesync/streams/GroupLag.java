package io.tracesync.streams;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How many records of some topics a consumer group (a Kafka Streams application: its {@code application.id}) has
 * not committed yet: per partition the latest offset minus the committed one, a partition with none committed
 * counting from its earliest offset. Exact for topics written without transactions (the trace topics), whose
 * latest offset is a record's and not a transaction marker's.
 */
public final class GroupLag {

    private GroupLag() {
    }

    /** The records of {@code topics} that {@code group} has not committed. */
    public static long of(Admin admin, String group, Collection<String> topics)
            throws ExecutionException, InterruptedException {
        if (topics.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions().forEach(p -> {
            TopicPartition tp = new TopicPartition(d.name(), p.partition());
            latest.put(tp, OffsetSpec.latest());
            earliest.put(tp, OffsetSpec.earliest());
        }));
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        var ends = admin.listOffsets(latest).all().get();
        var starts = admin.listOffsets(earliest).all().get();
        long lag = 0;
        for (TopicPartition tp : latest.keySet()) {
            OffsetAndMetadata c = committed.get(tp);
            long from = c == null ? starts.get(tp).offset() : Math.max(c.offset(), starts.get(tp).offset());
            lag += Math.max(0, ends.get(tp).offset() - from);
        }
        return lag;
    }
}
