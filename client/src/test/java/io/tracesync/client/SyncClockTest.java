package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.DatasheetBound;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion.Basis;
import io.tracesync.core.network.Conversion;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * {@link SyncClock} without a broker, and on Kafka's {@code MockConsumer}; on a real one: integration-tests'
 * SyncClockIntegrationTest.
 */
class SyncClockTest {

    private static final String TOPIC = "sync.factors";
    private static final String HISTORY = "sync.factors.history";
    private static final long SECOND = 1_000_000_000L;
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Nothing listens on port 1 of the loopback address. */
    private static final Map<String, Object> NO_BROKER = Map.of("bootstrap.servers", "127.0.0.1:1",
            "schema.registry.url", "mock://sync-clock-test", "default.api.timeout.ms", "60000");

    @Test
    void withoutABrokerItIsNotCaughtUpAndClosesPromptly() throws Exception {
        SyncClock clock = SyncClock.start(NO_BROKER);
        assertFalse(clock.awaitCaughtUp(Duration.ofMillis(300)));
        assertFalse(clock.caughtUp());
        assertTrue(clock.nodes().isEmpty());
        assertTrue(clock.convert("a", 0).isEmpty());
        long start = System.nanoTime();
        clock.close();
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "close waited for the metadata timeout");
        assertFalse(clock.awaitCaughtUp(Duration.ofMillis(1)));
    }

    @Test
    void securityKeysReachTheConsumer() {
        Map<String, Object> config = new HashMap<>(NO_BROKER);
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "PLAIN");
        KafkaException e = assertThrows(KafkaException.class, () -> SyncClock.start(config).close());
        assertTrue(causes(e).contains("JAAS"), causes(e)); // SASL wanted a JAAS configuration
    }

    @Test
    void historyKeysAreChecked() {
        for (Map.Entry<String, Object> bad : List.<Map.Entry<String, Object>>of(
                Map.entry(SyncClock.HISTORY_MAX_BYTES_CONFIG, "0"),
                Map.entry(SyncClock.HISTORY_MAX_BYTES_CONFIG, "64M"),
                Map.entry(SyncClock.HISTORY_RETENTION_MS_CONFIG, -1))) {
            Map<String, Object> config = new HashMap<>(NO_BROKER);
            config.put(bad.getKey(), bad.getValue());
            ConfigException e = assertThrows(ConfigException.class, () -> SyncClock.start(config).close());
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
        Map<String, Object> config = new HashMap<>(NO_BROKER);
        config.put(SyncClock.HISTORY_TOPIC_CONFIG, "");
        config.put(SyncClock.HISTORY_MAX_BYTES_CONFIG, 1L << 20);
        config.put(SyncClock.HISTORY_RETENTION_MS_CONFIG, "604800000");
        try (SyncClock clock = SyncClock.start(config)) {
            assertTrue(clock.history("a").isEmpty());
        }
    }

    /**
     * With the history, a time between two versions is answered from both, never wider than the older version
     * carried there; {@code factor} stays the latest, and past the newest version the answer is the latest's.
     */
    @Test
    void aPastTimeIsAnsweredByTheVersionsAroundIt() throws Exception {
        MockConsumer<String, SyncFactor> consumer = consumer(version(1), version(2));
        try (SyncClock clock = SyncClock.start(consumer, TOPIC, HISTORY, new FactorHistories(100, 0,
                System::currentTimeMillis), (n, p, c) -> { })) {
            assertTrue(clock.awaitCaughtUp(WAIT));
            PublishedFactor older = PublishedFactor.of(version(1));
            long t = 1_200 * SECOND;
            ReferenceTime c = clock.convert("a", t).orElseThrow();
            assertEquals(Basis.INTERPOLATED, c.basis());
            assertEquals(1, c.version());
            assertEquals(OptionalLong.of(2), c.next());
            assertEquals(t + 10, c.referenceNs());
            assertTrue(width(c) <= width(older.convert(t)), c + " vs " + older.convert(t));
            assertEquals(List.of(1L, 2L), clock.history("a").stream().map(FactorVersion::number).toList());
            PublishedFactor latest = clock.factor("a").orElseThrow();
            assertEquals(2, latest.version());
            assertEquals(latest.convert(3_000 * SECOND), clock.convert("a", 3_000 * SECOND).orElseThrow());
        }
    }

    /** Without the history, every time is answered by the latest factor, as {@link PublishedFactor#convert}. */
    @Test
    void withoutTheHistoryTheLatestFactorAnswers() throws Exception {
        MockConsumer<String, SyncFactor> consumer = consumer(version(1), version(2));
        try (SyncClock clock = SyncClock.start(consumer, TOPIC, null, null, (n, p, c) -> { })) {
            assertTrue(clock.awaitCaughtUp(WAIT));
            ReferenceTime c = clock.convert("a", 1_200 * SECOND).orElseThrow();
            assertEquals(clock.factor("a").orElseThrow().convert(1_200 * SECOND), c);
            assertEquals(Basis.EXTRAPOLATED, c.basis());
            assertTrue(c.truncated(), "version 1 would have answered better");
            assertEquals(800 * SECOND, c.fromDataNs());
            assertTrue(clock.history("a").isEmpty());
        }
    }

    /**
     * Under the datasheet alone the history's versions around a past time answer, each bound carried there and
     * intersected: 200 s after version 1 its bound alone (version 2's, 800 s away, is wider), 100 s before version 2
     * the latter's; without the history the latest record's alone, four times as wide 800 s before it.
     */
    @Test
    void underTheDatasheetAPastTimeIsAnsweredByTheVersionsAroundIt() throws Exception {
        SyncFactor first = datasheeted(1);
        SyncFactor second = datasheeted(2);
        try (SyncClock clock = SyncClock.start(consumer(first, second), TOPIC, HISTORY, new FactorHistories(100, 0,
                System::currentTimeMillis), (n, p, c) -> { });
                SyncClock latestOnly = SyncClock.start(consumer(first, second), TOPIC, null, null,
                        (n, p, c) -> { })) {
            assertTrue(clock.awaitCaughtUp(WAIT) && latestOnly.awaitCaughtUp(WAIT));
            long t = 1_200 * SECOND;
            Conversion past = clock.convertUnderDatasheet("a", t).orElseThrow();
            Conversion latest = latestOnly.convertUnderDatasheet("a", t).orElseThrow();
            assertEquals(PublishedFactor.of(first).convertUnderDatasheet(t).orElseThrow(), past);
            assertEquals(PublishedFactor.of(second).convertUnderDatasheet(t).orElseThrow(), latest);
            assertTrue(4 * (past.upperNs() - past.lowerNs()) < latest.upperNs() - latest.lowerNs() + 8_000, past
                    + " vs " + latest);
            assertEquals(PublishedFactor.of(second).convertUnderDatasheet(1_900 * SECOND).orElseThrow(),
                    clock.convertUnderDatasheet("a", 1_900 * SECOND, "ref").orElseThrow());
            assertTrue(clock.convertUnderDatasheet("a", t, "another").isEmpty());
        }
    }

    /** {@link #version} with a datasheet bound: t + 10 ns, ±1 µs at its anchor, growing 100 ppm each way. */
    private static SyncFactor datasheeted(long v) {
        SyncFactor f = version(v);
        return SyncFactor.newBuilder(f).setDatasheet(new DatasheetBound(f.getMap(), 1_000_000L, 1_000_000L,
                f.getAnchorNs(), 100e-6, 100e-6)).build();
    }

    /** Version v of node a: t + 10 ns, ±1 µs at v·1000 s, growing 1 ppm. */
    private static SyncFactor version(long v) {
        return Factors.anchored("a", v, v * 1_000 * SECOND, 10, 1_000_000L, v);
    }

    /** A consumer of the factors topic holding {@code factors} (one partition) and no history topic. */
    private static MockConsumer<String, SyncFactor> consumer(SyncFactor... factors) {
        MockConsumer<String, SyncFactor> consumer = new MockConsumer<>("earliest");
        TopicPartition p = new TopicPartition(TOPIC, 0);
        consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(p, 0L));
        consumer.updateEndOffsets(Map.of(p, (long) factors.length));
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < factors.length; i++) {
                consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, i, factors[i].getNode(), factors[i]));
            }
        });
        return consumer;
    }

    private static long width(ReferenceTime c) {
        return c.upperNs().orElseThrow() - c.lowerNs().orElseThrow();
    }

    private static String causes(Throwable e) {
        StringBuilder s = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            s.append(t).append('\n');
        }
        return s.toString();
    }
}
