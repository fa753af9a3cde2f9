package io.tracesync.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.it.SharedKafkaEnvironment;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** On the real broker: a transaction left open holds back its partition, and only that one is named. */
@ExtendWith(SharedKafkaEnvironment.class)
class OpenTransactionsTest {

    @Test
    void namesThePartitionAnOpenTransactionHoldsBackUntilItIsCommitted() throws Exception {
        String id = "open-transactions-" + UUID.randomUUID();
        String held = id + ".held";
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers()));
                KafkaProducer<String, String> plain = producer(Map.of());
                KafkaProducer<String, String> transactional = producer(Map.of(
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG, id,
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000))) {
            admin.createTopics(List.of(new NewTopic(held, 2, (short) 1), new NewTopic(id + ".free", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            plain.send(new ProducerRecord<>(id + ".free", "committed at once")).get(30, TimeUnit.SECONDS);
            transactional.initTransactions();
            transactional.beginTransaction();
            plain.send(new ProducerRecord<>(held, 1, null, "before")).get(30, TimeUnit.SECONDS);
            transactional.send(new ProducerRecord<>(held, 1, null, "open")).get(30, TimeUnit.SECONDS);

            List<String> lines = OpenTransactions.holdingBack(admin, id);
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).matches(held.replace(".", "\\.") + "-1: last stable offset 1, 1 records below its "
                    + "end; a transaction of producer \\d+ \\(epoch \\d+\\) open from offset 1"), lines.get(0));

            transactional.commitTransaction();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!lines.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
                lines = OpenTransactions.holdingBack(admin, id);
            }
            assertEquals(List.of(), lines, "after the commit");
        }
    }

    private static KafkaProducer<String, String> producer(Map<String, Object> more) {
        Map<String, Object> config = new HashMap<>(more);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaEnvironment.bootstrapServers());
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
