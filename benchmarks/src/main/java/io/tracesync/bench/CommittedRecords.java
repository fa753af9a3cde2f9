package io.tracesync.bench;

import io.tracesync.streams.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The committed records of a topic, as a read_committed reader outside any group sees them. */
final class CommittedRecords {

    private CommittedRecords() {
    }

    /** A read_committed consumer with the application's client settings, in no group, assigned nothing yet. */
    static KafkaConsumer<byte[], byte[]> reader(Settings settings) {
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** How many committed records {@code topic} holds: read from the beginning to the last stable offsets. */
    static long count(Settings settings, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = reader(settings)) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofMinutes(1)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> ends = c.endOffsets(parts);
            long records = 0;
            int idle = 0;
            while (parts.stream().anyMatch(tp -> c.position(tp) < ends.get(tp))) {
                int n = c.poll(Duration.ofMillis(200)).count();
                records += n;
                // a transaction's marker after the last record is never returned; the position may stop before it
                idle = n == 0 ? idle + 1 : 0;
                if (idle == 10) {
                    break;
                }
            }
            return records;
        }
    }
}
