package io.tracesync.streams;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.NodeFactor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code sync.factors} (or the factor history) as consumers see it: committed records only, the latest per
 * node.
 */
public final class FactorsTopic {

    private FactorsTopic() {
    }

    /** Every committed factor record, in partition order, from the beginning to the current end. */
    public static List<ConsumerRecord<String, SyncFactor>> readAll(Settings settings, Duration timeout) {
        return readAll(settings, new Topics(settings).factors, timeout);
    }

    /**
     * Every committed record of a topic of factor records ({@code sync.factors} or the factor history), in
     * partition order, from the beginning to the current end.
     */
    public static List<ConsumerRecord<String, SyncFactor>> readAll(Settings settings, String topic,
            Duration timeout) {
        Topics topics = new Topics(settings);
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "tracesync-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, SyncFactor> c = new KafkaConsumer<>(p, new StringDeserializer(),
                topics.syncFactor.deserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            List<ConsumerRecord<String, SyncFactor>> out = new java.util.ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading " + topic);
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    /**
     * The first difference between expected answers and the factor records of every node (the reference and the
     * factor as a reader decodes it), or null when every node has its expected one and no other node has one.
     */
    public static String differences(Map<String, NodeFactor> expected, Map<String, SyncFactor> got) {
        if (!expected.keySet().equals(got.keySet())) {
            return "nodes " + got.keySet() + " instead of " + expected.keySet();
        }
        for (NodeFactor e : expected.values()) {
            SyncFactor g = got.get(e.node());
            if (!e.reference().equals(g.getReference()) || !e.factor().equals(PublishedFactor.of(g).factor())) {
                return e.node() + ": " + g + " instead of " + e;
            }
        }
        return null;
    }

    /** The latest committed factor of every node. */
    public static Map<String, SyncFactor> latest(Settings settings, Duration timeout) {
        Map<String, SyncFactor> out = new TreeMap<>();
        for (ConsumerRecord<String, SyncFactor> r : readAll(settings, timeout)) {
            out.put(r.key(), r.value());
        }
        return out;
    }
}
