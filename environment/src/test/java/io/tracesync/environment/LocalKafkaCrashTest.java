package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker killed with SIGKILL and started again while its separate controller goes on. */
class LocalKafkaCrashTest {
    private static final TopicPartition PARTITION = new TopicPartition("crash", 0);
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    /**
     * A transaction left open at the crash times out while the broker starts again. Its abort marker must reach
     * the partition, or the last stable offset stays below the end for good (a hanging transaction): with a broker
     * that was its own controller, the coordinator completed such aborts without their markers.
     */
    @Test
    void aTransactionOpenAtTheCrashIsAbortedWithItsMarkerOnceTheBrokerIsBack(@TempDir Path dir) throws Exception {
        try (LocalKafka kafka = LocalKafka.startWithSeparateController(dir);
                Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(PARTITION.topic(), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "crash-test",
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1000),
                    new StringSerializer(), new StringSerializer());
            try {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(PARTITION.topic(), "left open")).get(30, TimeUnit.SECONDS);
                long end = offset(admin, IsolationLevel.READ_UNCOMMITTED);
                assertEquals(0, offset(admin, IsolationLevel.READ_COMMITTED), "the open transaction holds it back");

                kafka.crash(Duration.ofSeconds(1));

                long deadline = System.nanoTime() + DEADLINE.toNanos();
                long stable = -1;
                while (System.nanoTime() < deadline && stable < end) {
                    try {
                        stable = offset(admin, IsolationLevel.READ_COMMITTED);
                    } catch (Exception notBackYet) {
                        // retried until the deadline
                    }
                    Thread.sleep(200);
                }
                assertTrue(stable >= end, "last stable offset " + stable + " never reached the record's end " + end
                        + " after the restart: a hanging transaction\n" + kafka.logTail(40));
            } finally {
                producer.close(Duration.ZERO);
            }
        }
    }

    @Test
    void aBrokerThatIsItsOwnControllerIsNotCrashed(@TempDir Path dir) throws Exception {
        try (LocalKafka kafka = LocalKafka.start(dir)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> kafka.crash(Duration.ZERO));
            assertTrue(e.getMessage().contains("startWithSeparateController"), e.getMessage());
        }
    }

    private static long offset(Admin admin, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                .partitionResult(PARTITION).get(5, TimeUnit.SECONDS).offset();
    }
}
