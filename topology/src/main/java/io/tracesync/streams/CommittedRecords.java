package io.tracesync.streams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A topic's records as a consumer of the application's output sees them: committed ones only
 * ({@code read_committed}), read by a reader in no group, with the application's client settings.
 */
public final class CommittedRecords {

    private CommittedRecords() {
    }

    /**
     * A read_committed reader's settings: the application's client settings, no group, nothing committed. The group's
     * keys go: a reader in no group has no use for them, and {@code group.protocol} may be Kafka Streams' own
     * {@code streams}, which a consumer refuses.
     */
    public static Properties readerProperties(Settings settings) {
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        for (String groupKey : new String[] {ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG}) {
            p.remove(groupKey);
        }
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return p;
    }

    /** Every committed record of {@code topic}, in partition order, from the beginning to its end now. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(Settings settings, String topic, Duration timeout) {
        return readAll(settings, topic, new ByteArrayDeserializer(), new ByteArrayDeserializer(), timeout);
    }

    /** Every committed record of {@code topic}, as {@link #forEach}, in a list. */
    public static <K, V> List<ConsumerRecord<K, V>> readAll(Settings settings, String topic, Deserializer<K> keys,
            Deserializer<V> values, Duration timeout) {
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        forEach(settings, topic, keys, values, timeout, out::add);
        return out;
    }

    /** How many committed records {@code topic} holds, from the beginning to its end now. */
    public static long count(Settings settings, String topic, Duration timeout) {
        long[] count = new long[1];
        forEach(settings, topic, new ByteArrayDeserializer(), new ByteArrayDeserializer(), timeout, r -> count[0]++);
        return count[0];
    }

    /**
     * Hands every committed record of {@code topic} to {@code each}, in partition order, from the beginning to its
     * end now (each partition's last stable offset when the read starts); fails if that takes longer than
     * {@code timeout}.
     */
    public static <K, V> void forEach(Settings settings, String topic, Deserializer<K> keys, Deserializer<V> values,
            Duration timeout, Consumer<ConsumerRecord<K, V>> each) {
        try (KafkaConsumer<K, V> c = new KafkaConsumer<>(readerProperties(settings), keys, values)) {
            List<TopicPartition> parts = c.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            long read = 0;
            long deadline = System.nanoTime() + timeout.toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp, timeout) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s reading " + topic
                            + ": " + read + " records read, the ends " + end);
                }
                for (ConsumerRecord<K, V> r : c.poll(Duration.ofMillis(200))) {
                    each.accept(r);
                    read++;
                }
            }
        }
    }
}
