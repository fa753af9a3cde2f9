package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.Settings;
import io.tracesync.streams.errors.DeadLetterClientSupplier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dead letter of a record the broker refused is written from the refused send's callback, on the producer's
 * network thread, as Kafka Streams does (Kafka 4.3.1, {@code RecordCollectorImpl.recordSendError}). The
 * application's producers ({@link DeadLetterClientSupplier}, the default {@code default.client.supplier}) deliver
 * it whether or not they ever wrote to the dead-letter topic before; Kafka's own producer cannot, and fails the
 * dead letter after {@code max.block.ms} with its network thread blocked all that time.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class DeadLetterMetadataTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    private Settings settings;
    private String accepted;
    private String refused;
    private String deadLetters;

    @BeforeEach
    void topics() throws Exception {
        String id = "dead-letter-metadata-" + UUID.randomUUID();
        settings = Settings.of(SharedKafkaEnvironment.isolated(id)).with("processing.guarantee", "at_least_once");
        accepted = id + ".accepted";
        refused = id + ".refused";
        deadLetters = settings.get("dlq.topic");
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            admin.createTopics(List.of(new NewTopic(accepted, 1, (short) 1),
                    new NewTopic(refused, 1, (short) 1).configs(Map.of("max.message.bytes", "64")),
                    new NewTopic(deadLetters, 1, (short) 1))).all().get();
        }
    }

    @Test
    void theApplicationsProducerDeliversTheFirstDeadLetter() throws Exception {
        StreamsConfig config = new StreamsConfig(settings.streamsProperties());
        assertInstanceOf(DeadLetterClientSupplier.class, config.getKafkaClientSupplier());
        try (Producer<byte[], byte[]> producer = config.getKafkaClientSupplier()
                .getProducer(config.getProducerConfigs("first-dead-letter"))) {
            assertEquals(deadLetters, deadLetterFromTheCallback(producer).get(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .topic());
        }
    }

    /** The dead-letter topic's metadata is dropped after metadata.max.idle.ms without a write; kept, it is not. */
    @Test
    void theApplicationsProducerDeliversADeadLetterAfterIdleTime() throws Exception {
        Properties properties = settings.streamsProperties();
        properties.put(StreamsConfig.producerPrefix(ProducerConfig.METADATA_MAX_IDLE_CONFIG), "5000");
        properties.put(StreamsConfig.producerPrefix(ProducerConfig.METADATA_MAX_AGE_CONFIG), "300");
        StreamsConfig config = new StreamsConfig(properties);
        try (Producer<byte[], byte[]> producer = config.getKafkaClientSupplier()
                .getProducer(config.getProducerConfigs("idle-dead-letter"))) {
            producer.send(new ProducerRecord<>(accepted, new byte[1], new byte[1])).get();
            // past the idle time, with a metadata update every 300 ms to drop what expired: the time is the condition
            long idleEnd = System.nanoTime() + Duration.ofSeconds(7).toNanos();
            while (System.nanoTime() < idleEnd) {
                Thread.sleep(100);
            }
            assertEquals(deadLetters, deadLetterFromTheCallback(producer).get(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .topic());
        }
    }

    /** What the application's producers prevent: the first dead letter from a callback stalls, then fails. */
    @Test
    void kafkasOwnProducerFailsTheFirstDeadLetter() throws Exception {
        Properties properties = settings.streamsProperties();
        properties.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, DefaultKafkaClientSupplier.class.getName());
        properties.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_BLOCK_MS_CONFIG), "3000");
        StreamsConfig config = new StreamsConfig(properties);
        try (Producer<byte[], byte[]> producer = config.getKafkaClientSupplier()
                .getProducer(config.getProducerConfigs("kafka-producer"))) {
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> deadLetterFromTheCallback(producer).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, failed.getCause());
            assertTrue(failed.getCause().getMessage().contains("not present in metadata"),
                    failed.getCause().getMessage());
        }
    }

    /**
     * Sends a record the broker refuses; its callback writes the dead letter on the same producer, from the
     * producer's network thread. Completes with the dead letter's metadata, or its failure.
     */
    private CompletableFuture<RecordMetadata> deadLetterFromTheCallback(Producer<byte[], byte[]> producer) {
        CompletableFuture<RecordMetadata> dead = new CompletableFuture<>();
        producer.send(new ProducerRecord<>(refused, new byte[1], new byte[1024]), (metadata, refusal) -> {
            if (!(refusal instanceof RecordTooLargeException)) {
                dead.completeExceptionally(new AssertionError("expected the broker to refuse the record: " + refusal));
                return;
            }
            producer.send(new ProducerRecord<>(deadLetters, new byte[1],
                    refusal.toString().getBytes(StandardCharsets.UTF_8)), (written, failure) -> {
                        if (failure == null) {
                            dead.complete(written);
                        } else {
                            dead.completeExceptionally(failure);
                        }
                    });
        });
        return dead;
    }
}
