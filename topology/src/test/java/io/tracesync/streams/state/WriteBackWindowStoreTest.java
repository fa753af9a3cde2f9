package io.tracesync.streams.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.TestStateDirs;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class WriteBackWindowStoreTest {

    private static final Duration PERIOD = Duration.ofSeconds(10);

    /** One operation of a random sequence: 0 put, 1 delete, 2 flush, 3 scan, 4 clear-and-reopen. */
    record Op(int kind, String key, long time, long value) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Arbitraries.integers().between(0, 9).flatMap(kind -> Arbitraries.of("a", "b", "c").flatMap(key ->
                Arbitraries.of(1L, 2L, 3L).flatMap(time -> Arbitraries.longs().between(0, 99).map(v ->
                        new Op(kind < 5 ? 0 : kind < 6 ? 1 : kind - 4, key, time, v))))).list().ofMaxSize(200);
    }

    /** Point reads and scans agree with a plain map of slots after every operation, whatever the buffer holds. */
    @Property(tries = 300)
    void behavesLikeAMapOfSlots(@ForAll("ops") List<Op> ops) {
        WindowStore<String, Long> inner = Stores.windowStoreBuilder(Stores.inMemoryWindowStore("w",
                Duration.ofDays(1), Duration.ofMillis(1), false), Serdes.String(), Serdes.Long())
                .withLoggingDisabled().build();
        WriteBackWindowStore<String, Long> store = new WriteBackWindowStore<>(inner, 3);
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        Map<String, Long> model = new TreeMap<>();
        for (Op op : ops) {
            String slot = op.key() + "@" + op.time();
            switch (op.kind()) {
                case 0 -> {
                    store.put(op.key(), op.value(), op.time());
                    model.put(slot, op.value());
                }
                case 1 -> {
                    store.put(op.key(), null, op.time());
                    model.remove(slot);
                }
                case 2 -> {
                    store.flushCache();
                    assertEquals(model, contents(inner));
                }
                case 3 -> {
                    assertEquals(model, contents(store));
                    assertEquals(model, contents(inner));
                }
                default -> {
                    store.flushCache();
                    store.clearCache();
                }
            }
            for (String k : List.of("a", "b", "c")) {
                for (long t = 1; t <= 3; t++) {
                    assertEquals(model.get(k + "@" + t), store.fetch(k, t), k + "@" + t);
                }
            }
        }
    }

    private static Map<String, Long> contents(WindowStore<String, Long> store) {
        Map<String, Long> out = new TreeMap<>();
        try (KeyValueIterator<Windowed<String>, Long> it = store.all()) {
            it.forEachRemaining(kv -> out.put(kv.key.key() + "@" + kv.key.window().start(), kv.value));
        }
        return out;
    }

    /**
     * In a real task, on RocksDB: the changelog gets one record per slot and commit, stamped with the wall clock
     * (input timestamps would let the broker delete by time what the store still needs), and a period two behind
     * the latest written is deleted whole at that write, with no tombstone in the changelog.
     */
    @Test
    void periodsExpireWholeAndTheChangelogIsStampedWithTheWallClock() {
        long p = PERIOD.toMillis();
        Instant wall = Instant.parse("2026-11-25T00:00:00Z");
        StreamsBuilder b = new StreamsBuilder();
        WriteBackStoreBuilder<WindowStore<String, Long>> builder = WriteBackStoreBuilder.periods("seen", PERIOD,
                Serdes.String(), Serdes.Long());
        assertEquals(Long.toString(3 * p), builder.logConfig().get("retention.ms"));
        b.addStateStore(builder);
        // each input "key period value": value written in slot (key, last millisecond of the period)
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(() -> new Processor<String, String, Void, Void>() {
                    private WindowStore<String, Long> store;

                    @Override
                    public void init(ProcessorContext<Void, Void> context) {
                        store = context.getStateStore("seen");
                    }

                    @Override
                    public void process(Record<String, String> r) {
                        for (String write : r.value().split(",")) {
                            String[] w = write.split(" ");
                            store.put(w[0], Long.parseLong(w[2]), Long.parseLong(w[1]) * p + p - 1);
                        }
                    }
                }, "seen");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "wbw");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, TestStateDirs.fresh());
        try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), props, wall)) {
            TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestOutputTopic<byte[], Long> changelog = driver.createOutputTopic("wbw-seen-changelog",
                    Serdes.ByteArray().deserializer(), Serdes.Long().deserializer());
            long before = System.currentTimeMillis();
            in.pipeInput(new TestRecord<>("1", "x 0 1,y 0 1,x 0 2", null, 1000L));
            in.pipeInput(new TestRecord<>("2", "y 1 5", null, 2000L));
            WindowStore<String, Long> store = driver.getWindowStore("seen");
            assertEquals(2L, store.fetch("x", p - 1));
            assertEquals(5L, store.fetch("y", 2 * p - 1));
            in.pipeInput(new TestRecord<>("3", "z 2 7", null, 3000L));
            assertNull(store.fetch("x", p - 1), "period 0 expired at the first write of period 2");
            assertEquals(5L, store.fetch("y", 2 * p - 1), "period 1 still read");
            List<String> slots = new ArrayList<>();
            for (TestRecord<byte[], Long> r : changelog.readRecordsToList()) {
                ByteBuffer key = ByteBuffer.wrap(r.key());
                // a window store's key: the key's bytes, the window's time, a sequence number
                String k = new String(r.key(), 0, r.key().length - 12, StandardCharsets.UTF_8);
                slots.add(k + "@" + key.getLong(r.key().length - 12) / p + "=" + r.value());
                assertTrue(r.timestamp() >= before && r.timestamp() <= System.currentTimeMillis(),
                        "stamped with the wall clock: " + r.timestamp());
            }
            assertEquals(List.of("x@0=2", "y@0=1", "y@1=5", "z@2=7"), slots, "one record per slot and commit");
        }
    }
}
