package io.tracesync.streams.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tracesync.streams.TestStateDirs;
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
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class WriteBackStoreTest {

    private static KeyValueStore<String, Long> inMemory(String name) {
        KeyValueStore<String, Long> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                Serdes.String(), Serdes.Long()).withLoggingDisabled().build();
        return store;
    }

    private static WriteBackStore<String, Long> over(KeyValueStore<String, Long> inner, int maxDirty) {
        WriteBackStore<String, Long> store = new WriteBackStore<>(inner, maxDirty);
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }

    /** One operation of a random sequence: 0 put, 1 delete, 2 putIfAbsent, 3 flush, 4 scan, 5 clear-and-reopen. */
    record Op(int kind, String key, long value) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Arbitraries.integers().between(0, 9).flatMap(kind -> Arbitraries.of("a", "b", "c", "d", "e", "f")
                .flatMap(key -> Arbitraries.longs().between(0, 99).map(v -> new Op(kind < 4 ? 0 : kind - 3, key, v))))
                .list().ofMaxSize(200);
    }

    /** Reads, scans and counts agree with a plain map after every operation, whatever the buffer holds. */
    @Property(tries = 300)
    void behavesLikeAMap(@ForAll("ops") List<Op> ops) {
        KeyValueStore<String, Long> inner = inMemory("s");
        WriteBackStore<String, Long> store = over(inner, 3);
        Map<String, Long> model = new TreeMap<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case 0 -> {
                    store.put(op.key(), op.value());
                    model.put(op.key(), op.value());
                }
                case 1 -> assertEquals(model.remove(op.key()), store.delete(op.key()));
                case 2 -> assertEquals(model.putIfAbsent(op.key(), op.value()), store.putIfAbsent(op.key(), op.value()));
                case 3 -> {
                    store.flushCache();
                    assertEquals(model, contents(inner));
                }
                case 4 -> {
                    assertEquals(model, contents(store));
                    assertEquals(model, contents(inner));
                    assertEquals(model.size(), store.approximateNumEntries());
                }
                default -> {
                    store.flushCache();
                    store.clearCache();
                }
            }
            for (String k : List.of("a", "b", "c", "d", "e", "f")) {
                assertEquals(model.get(k), store.get(k), k);
            }
        }
    }

    private static Map<String, Long> contents(KeyValueStore<String, Long> store) {
        Map<String, Long> out = new TreeMap<>();
        try (KeyValueIterator<String, Long> it = store.all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    @Test
    void writesOnlyTheLatestValueOfEachKeyAtTheFlush() {
        KeyValueStore<String, Long> inner = inMemory("s");
        WriteBackStore<String, Long> store = over(inner, 10);
        for (long v = 1; v <= 5; v++) {
            store.put("k", v);
        }
        store.put("gone", 1L);
        store.delete("gone");
        assertEquals(5L, store.get("k"));
        assertNull(inner.get("k"));
        store.flushCache();
        assertEquals(5L, inner.get("k"));
        assertNull(inner.get("gone"));
    }

    @Test
    void writesBackEarlyBeyondItsBound() {
        KeyValueStore<String, Long> inner = inMemory("s");
        WriteBackStore<String, Long> store = over(inner, 2);
        store.put("a", 1L);
        store.put("b", 2L);
        assertNull(inner.get("a"));
        store.put("c", 3L);
        assertEquals(Map.of("a", 1L, "b", 2L, "c", 3L), contents(inner));
    }

    @Test
    void aDirtyCloseDropsWhatWasNotWrittenBack() {
        KeyValueStore<String, Long> inner = inMemory("s");
        WriteBackStore<String, Long> store = over(inner, 10);
        store.put("a", 1L);
        store.flushCache();
        store.put("a", 2L);
        store.put("b", 3L);
        store.clearCache();
        assertEquals(1L, store.get("a"));
        assertNull(store.get("b"));
    }

    /**
     * In a real task (TopologyTestDriver commits after each input record): one changelog record per key written,
     * in the order first written, with the timestamp of the record that wrote it — the last of several writes of a
     * key within one commit.
     */
    @Test
    void changelogGetsOneRecordPerKeyAndCommit() {
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(WriteBackStoreBuilder.persistent("counts", Serdes.String(), Serdes.Long()));
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(() -> new Processor<String, String, Void, Void>() {
                    private KeyValueStore<String, Long> store;

                    @Override
                    public void init(ProcessorContext<Void, Void> context) {
                        store = context.getStateStore("counts");
                    }

                    @Override
                    public void process(Record<String, String> r) {
                        for (String word : r.value().split(" ")) {
                            Long n = store.get(word);
                            store.put(word, n == null ? 1 : n + 1);
                        }
                    }
                }, "counts");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "wb");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, TestStateDirs.fresh());
        try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), p)) {
            TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestOutputTopic<String, Long> changelog = driver.createOutputTopic("wb-counts-changelog",
                    Serdes.String().deserializer(), Serdes.Long().deserializer());
            in.pipeInput(new TestRecord<>("1", "x y x x", null, 1000L));
            in.pipeInput(new TestRecord<>("2", "y", null, 2000L));
            List<KeyValue<String, Long>> written = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            for (TestRecord<String, Long> r : changelog.readRecordsToList()) {
                written.add(KeyValue.pair(r.key(), r.value()));
                times.add(r.timestamp());
            }
            assertEquals(List.of(KeyValue.pair("x", 3L), KeyValue.pair("y", 1L), KeyValue.pair("y", 2L)), written);
            assertEquals(List.of(1000L, 1000L, 2000L), times);
            KeyValueStore<String, Long> store = driver.getKeyValueStore("counts");
            assertEquals(3L, store.get("x"));
        }
    }
}
