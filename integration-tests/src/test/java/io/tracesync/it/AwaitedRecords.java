package io.tracesync.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** A topic's committed records as raw bytes as they come, read by a fresh group from the beginning. */
final class AwaitedRecords {

    private AwaitedRecords() {
    }

    /**
     * Polls until at least {@code atLeast} records came or the timeout passed, then {@code settle} more for any
     * record beyond them (a test that expects exactly that many then sees a spurious one).
     */
    static List<ConsumerRecord<byte[], byte[]>> read(Map<String, ?> clientConfig, String topic, int atLeast,
            Duration timeout, Duration settle) {
        Map<String, Object> p = new HashMap<>(clientConfig);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (out.size() < atLeast && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            c.poll(settle).forEach(out::add);
        }
        return out;
    }
}
