package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
    private static final String HISTORY = "sync.factors.history";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final TopicPartition H0 = new TopicPartition(HISTORY, 0);
    private static final TopicPartition H1 = new TopicPartition(HISTORY, 1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MockConsumer<String, SyncFactor> consumer = new MockConsumer<>("earliest");
    private final LatestFactors table = new LatestFactors();
    private final FactorHistories histories = new FactorHistories(1000, 0, System::currentTimeMillis);
    private final List<String> changes = new CopyOnWriteArrayList<>();
    private final FactorPoller poller = new FactorPoller(consumer, TOPIC, table,
            (node, previous, current) -> changes.add(node + ":" + version(previous) + "->" + version(current)),
            HISTORY, histories);
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
        topic(TOPIC, Map.of(P0, 2L, P1, 1L));
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
        topic(TOPIC, Map.of(P0, 0L, P1, 0L));
        start();
        assertTrue(poller.awaitCaughtUp(WAIT));
    }

    @Test
    void anUnreadableRecordIsSkippedAndAnUnavailableRegistryRetried() throws Exception {
        topic(TOPIC, Map.of(P0, 3L, P1, 0L));
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
        topic(TOPIC, Map.of(P0, 1L, P1, 0L));
        consumer.setPollException(new KafkaException("not authorized"));
        start();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> poller.awaitCaughtUp(WAIT));
        assertEquals("not authorized", e.getCause().getMessage());
        assertFalse(poller.caughtUp());
    }

    /**
     * The compacted topic's latest versions arrive before the history's older ones, and every version of the
     * history again in the factors topic: the history holds each version once, in order, and the listener hears of
     * the factors topic's records alone. Caught up once both topics' end offsets are read.
     */
    @Test
    void bothTopicsFeedTheHistoryInAnyOrderAndDuplicatesAreHarmless() throws Exception {
        topic(TOPIC, Map.of(P0, 2L, P1, 1L));
        topic(HISTORY, Map.of(H0, 5L, H1, 1L));
        CountDownLatch last = new CountDownLatch(1);
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(P0, 0, "a", version("a", 4)));
            consumer.addRecord(record(P1, 0, "b", version("b", 1)));
            consumer.addRecord(record(H0, 0, "a", version("a", 1)));
        });
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(H0, 1, "a", version("a", 2)));
            consumer.addRecord(record(H0, 2, "a", version("a", 3)));
            consumer.addRecord(record(H1, 0, "b", version("b", 1)));
            consumer.addRecord(record(H0, 3, "a", version("a", 4)));
        });
        consumer.schedulePollTask(() -> {
            assertFalse(poller.caughtUp(), "caught up before the history's end");
            try {
                last.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            consumer.addRecord(record(H0, 4, "a", version("a", 5)));
            consumer.addRecord(record(P0, 1, "a", version("a", 5)));
        });
        start();
        assertFalse(poller.awaitCaughtUp(Duration.ofMillis(200)));
        last.countDown();
        assertTrue(poller.awaitCaughtUp(WAIT));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), numbers("a"));
        assertEquals(List.of(1L), numbers("b"));
        assertEquals(5, table.get("a").orElseThrow().version());
        assertEquals(Set.of("a:0->4", "b:0->1", "a:4->5"), Set.copyOf(changes));
    }

    /** Without a history topic the factors topic is read alone; the history topic is read once it appears. */
    @Test
    void aHistoryTopicThatDoesNotExistYetIsReadOnceItAppears() throws Exception {
        topic(TOPIC, Map.of(P0, 1L, P1, 0L));
        consumer.schedulePollTask(() -> consumer.addRecord(record(P0, 0, "a", version("a", 3))));
        start();
        assertTrue(poller.awaitCaughtUp(WAIT));
        assertEquals(List.of(3L), numbers("a"));
        consumer.schedulePollTask(() -> topic(HISTORY, Map.of(H0, 2L, H1, 0L)));
        // picked up within a second: the next task runs once the history's partitions are assigned
        consumer.schedulePollTask(() -> { });
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!consumer.assignment().contains(H0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(consumer.assignment().contains(H0), "history topic not assigned");
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(H0, 0, "a", version("a", 4)));
            consumer.addRecord(record(H0, 1, "a", version("a", 5)));
        });
        while (numbers("a").size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of(3L, 4L, 5L), numbers("a"));
        assertEquals(Set.of(P0, P1, H0, H1), consumer.assignment());
        assertEquals(Set.of("a:0->3"), Set.copyOf(changes));
    }

    private void topic(String name, Map<TopicPartition, Long> end) {
        consumer.updatePartitions(name, end.keySet().stream()
                .map(tp -> new PartitionInfo(name, tp.partition(), null, null, null)).toList());
        Map<TopicPartition, Long> beginning = new HashMap<>();
        end.keySet().forEach(tp -> beginning.put(tp, 0L));
        consumer.updateBeginningOffsets(beginning);
        consumer.updateEndOffsets(end);
    }

    private void start() {
        thread = new Thread(poller, "poller-test");
        thread.start();
    }

    private List<Long> numbers(String node) {
        return histories.versions(node).stream().map(FactorVersion::number).toList();
    }

    /** Version v of a node, anchored at v s. */
    private static SyncFactor version(String node, long v) {
        return Factors.anchored(node, v, v * 1_000_000_000L, 10, 1_000_000L, v);
    }

    private static ConsumerRecord<String, SyncFactor> record(TopicPartition tp, long offset, String key,
            SyncFactor value) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, key, value);
    }

    private static long version(PublishedFactor f) {
        return f == null ? 0 : f.version();
    }
}
