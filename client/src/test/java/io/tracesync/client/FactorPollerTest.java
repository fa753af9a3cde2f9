package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FactorPollerTest {

    private static final String TOPIC = "sync.factors";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MockConsumer<String, SyncFactor> consumer = new MockConsumer<>("earliest");
    private final LatestFactors table = new LatestFactors();
    private final List<String> changes = new CopyOnWriteArrayList<>();
    private final FactorPoller poller = new FactorPoller(consumer, TOPIC, table,
            (node, previous, current) -> changes.add(node + ":" + version(previous) + "->" + version(current)));
    private Thread thread;

    @AfterEach
    void stop() throws InterruptedException {
        poller.close();
        if (thread != null) {
            thread.join();
        }
        assertTrue(consumer.closed());
    }

    @Test
    void readsEveryPartitionFromTheBeginningAndCatchesUpAtTheEndOffsets() throws Exception {
        topic(Map.of(P0, 2L, P1, 1L));
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(P0, 0, "a", Factors.shift("a", 1, 10)));
            consumer.addRecord(record(P1, 0, "b", Factors.shift("b", 3, 20)));
        });
        consumer.schedulePollTask(() -> consumer.addRecord(record(P0, 1, "a", Factors.shift("a", 2, 15))));
        start();
        assertTrue(poller.awaitCaughtUp(WAIT));
        assertTrue(poller.caughtUp());
        assertEquals(Set.of("a:0->1", "b:0->3", "a:1->2"), Set.copyOf(changes));
        assertTrue(changes.indexOf("a:0->1") < changes.indexOf("a:1->2"), changes.toString());
        assertEquals(15, table.get("a").orElseThrow().convert(0).referenceNs());
    }

    @Test
    void anEmptyTopicIsCaughtUpAtOnce() throws Exception {
        topic(Map.of(P0, 0L, P1, 0L));
        start();
        assertTrue(poller.awaitCaughtUp(WAIT));
    }

    @Test
    void anUnreadableRecordIsSkippedAndAnUnavailableRegistryRetried() throws Exception {
        topic(Map.of(P0, 3L, P1, 0L));
        consumer.schedulePollTask(() -> consumer.setPollException(new RecordDeserializationException(P0, 0,
                "garbage", new SerializationException("unknown magic byte"))));
        consumer.schedulePollTask(() -> {
            assertEquals(1, consumer.position(P0));
            consumer.setPollException(new RecordDeserializationException(P0, 1, "registry down",
                    new SchemaRegistryUnavailableException("no URL answered", null)));
        });
        consumer.schedulePollTask(() -> {
            assertEquals(1, consumer.position(P0));
            consumer.addRecord(record(P0, 1, "a", Factors.shift("a", 1, 10)));
            consumer.addRecord(record(P0, 2, "a", null));
        });
        start();
        assertTrue(poller.awaitCaughtUp(WAIT));
        assertEquals(List.of("a:0->1", "a:1->0"), changes);
    }

    @Test
    void aFatalErrorEndsTheThreadAndIsReportedToWaiters() throws Exception {
        topic(Map.of(P0, 1L, P1, 0L));
        consumer.setPollException(new KafkaException("not authorized"));
        start();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> poller.awaitCaughtUp(WAIT));
        assertEquals("not authorized", e.getCause().getMessage());
        assertFalse(poller.caughtUp());
    }

    private void topic(Map<TopicPartition, Long> end) {
        consumer.updatePartitions(TOPIC, end.keySet().stream()
                .map(tp -> new PartitionInfo(TOPIC, tp.partition(), null, null, null)).toList());
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.updateEndOffsets(end);
    }

    private void start() {
        thread = new Thread(poller, "poller-test");
        thread.start();
    }

    private static ConsumerRecord<String, SyncFactor> record(TopicPartition tp, long offset, String key,
            SyncFactor value) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, key, value);
    }

    private static long version(PublishedFactor f) {
        return f == null ? 0 : f.version();
    }
}
