package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.TopicCreator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Topics the application creates can be written at once, by an idempotent producer with many requests in flight:
 * no batch is refused (and retried, possibly behind a later batch) because a partition is not open yet.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class TopicCreatorTest {

    private static final int TOPICS = 12;
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 2_000;

    private static Map<String, Object> config() {
        return Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers());
    }

    @Test
    void everyPartitionTakesEveryRecordRightAfterCreation() throws Exception {
        String run = UUID.randomUUID().toString();
        List<NewTopic> topics = new ArrayList<>();
        for (int i = 0; i < TOPICS; i++) {
            topics.add(new NewTopic("it-created-" + run + "-" + i, PARTITIONS, (short) 1));
        }
        Map<String, Object> p = new HashMap<>(config());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "512");
        try (Admin admin = Admin.create(config());
             KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                     new StringSerializer())) {
            TopicCreator.create(admin, topics);
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int r = 0; r < RECORDS; r++) {
                for (NewTopic t : topics) {
                    sent.add(producer.send(new ProducerRecord<>(t.name(), r % PARTITIONS, null, "record " + r)));
                }
            }
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            topics.forEach(t -> {
                for (int i = 0; i < PARTITIONS; i++) {
                    ends.put(new TopicPartition(t.name(), i), OffsetSpec.latest());
                }
            });
            long written = admin.listOffsets(ends).all().get().values().stream().mapToLong(o -> o.offset()).sum();
            assertEquals((long) RECORDS * TOPICS, written);
            // not one batch refused by a partition not open yet (without the wait, several are, every time)
            assertEquals(0.0, producer.metrics().entrySet().stream()
                    .filter(m -> m.getKey().name().equals("record-retry-total")
                            && m.getKey().group().equals("producer-metrics"))
                    .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue()).sum(), "records retried");
            TopicCreator.create(admin, topics); // existing topics are left alone
        }
    }

    @Test
    void aTopicTheBrokerCannotHoldIsAClearError() throws Exception {
        String name = "it-created-" + UUID.randomUUID();
        try (Admin admin = Admin.create(config())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> TopicCreator.create(admin, List.of(new NewTopic(name, 1, (short) 3))));
            assertTrue(e.getMessage().contains(name) && e.getMessage().contains("replication factor"),
                    e.getMessage());
        }
    }
}
