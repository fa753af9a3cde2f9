package io.tracesync.it;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How many records of a topic a consumer group (a Kafka Streams application) has not committed yet: the end offsets
 * minus the committed ones. Meant for topics without transactions, whose end offset is a record's and not a marker's.
 */
final class GroupLag {

    private GroupLag() {
    }

    static long of(Admin admin, String group, String topic) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get()
                .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition()))
                .collect(Collectors.toMap(Function.identity(), tp -> OffsetSpec.latest()));
        long lag = 0;
        for (var end : admin.listOffsets(latest).all().get().entrySet()) {
            OffsetAndMetadata c = committed.get(end.getKey());
            lag += end.getValue().offset() - (c == null ? 0 : c.offset());
        }
        return lag;
    }

    /** Waits until the group has committed the whole topic. */
    static void awaitZero(Admin admin, String group, String topic, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lag;
        while ((lag = of(admin, group, topic)) > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(group + " still " + lag + " records behind on " + topic + " after "
                        + timeout.toSeconds() + " s");
            }
            Thread.sleep(200);
        }
    }
}
