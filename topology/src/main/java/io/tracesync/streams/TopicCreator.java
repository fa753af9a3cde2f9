package io.tracesync.streams;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates topics and returns once every partition is open on its leader. A producer that writes to a partition
 * the broker has not opened yet is refused and retries; an idempotent producer with several requests in flight can
 * meanwhile have a later batch accepted as its first, after which the refused batch is rejected as out of order
 * until it expires. Waiting until the leaders answer a ListOffsets request closes that window.
 */
public final class TopicCreator {

    private static final Duration READY_WITHIN = Duration.ofSeconds(60);

    private TopicCreator() {
    }

    /** Creates {@code topics} (those that exist already are left alone) and waits until they can be written. */
    public static void create(Admin admin, Collection<NewTopic> topics) throws InterruptedException {
        Map<String, KafkaFuture<Void>> created = admin.createTopics(topics).values();
        for (Map.Entry<String, KafkaFuture<Void>> e : created.entrySet()) {
            try {
                e.getValue().get();
            } catch (ExecutionException failed) {
                if (!(failed.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + e.getKey() + ": "
                            + failed.getCause().getMessage(), failed.getCause());
                }
            }
        }
        awaitWritable(admin, topics.stream().map(NewTopic::name).toList());
    }

    private static void awaitWritable(Admin admin, List<String> names) throws InterruptedException {
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (true) {
            try {
                Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
                for (TopicDescription d : admin.describeTopics(names).allTopicNames().get().values()) {
                    d.partitions().forEach(p -> partitions.put(new TopicPartition(d.name(), p.partition()),
                            OffsetSpec.latest()));
                }
                admin.listOffsets(partitions).all().get();
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics " + names + " created but not writable: "
                            + e.getCause().getMessage(), e.getCause());
                }
                Thread.sleep(100);
            }
        }
    }
}
