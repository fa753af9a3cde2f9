package io.tracesync.streams.state;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.RocksDbWindowBytesStoreSupplier;

/**
 * Builds a {@link WriteBack} buffer over a store built by Kafka Streams' own builder. The store, its changelog topic
 * and its bytes are those of that builder; only the buffer in front differs, so switching between the two needs no
 * reset.
 */
public final class WriteBackStoreBuilder<T extends StateStore> implements StoreBuilder<T> {

    /** Slots buffered before a write-back even without a commit: bounds the heap under long commit intervals. */
    static final int MAX_DIRTY = 10_000;

    private final StoreBuilder<T> store;
    private final BiFunction<T, Integer, T> buffer;
    private final int maxDirty;

    private WriteBackStoreBuilder(StoreBuilder<T> store, BiFunction<T, Integer, T> buffer, int maxDirty) {
        this.store = store;
        this.buffer = buffer;
        this.maxDirty = maxDirty;
    }

    /** A persistent key-value store named {@code name}, changelogged, behind a buffer of up to 10,000 keys. */
    public static <K, V> WriteBackStoreBuilder<KeyValueStore<K, V>> persistent(String name, Serde<K> keys,
            Serde<V> values) {
        return over(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), keys, values), MAX_DIRTY);
    }

    /** Any key-value store (in tests: an in-memory one) behind the buffer. */
    public static <K, V> WriteBackStoreBuilder<KeyValueStore<K, V>> over(StoreBuilder<KeyValueStore<K, V>> store,
            int maxDirty) {
        return new WriteBackStoreBuilder<>(store.withCachingDisabled(), WriteBackStore::new, maxDirty);
    }

    /**
     * A persistent window store of wall-clock periods (Kafka Streams' segmented RocksDB store, one segment per
     * period), changelogged, behind a buffer of up to 10,000 slots. Its retention is two periods less 1 ms: written
     * at the last millisecond of their period, the entries of the latest period written and of the one before are
     * read, and a segment is deleted whole, with no tombstone, at the first write two periods after it. The
     * changelog (compacted and deleted by time) keeps records for three periods of the wall clock.
     */
    public static <K, V> WriteBackStoreBuilder<WindowStore<K, V>> periods(String name, Duration period, Serde<K> keys,
            Serde<V> values) {
        long ms = period.toMillis();
        StoreBuilder<WindowStore<K, V>> store = Stores.windowStoreBuilder(new RocksDbWindowBytesStoreSupplier(name,
                        2 * ms - 1, ms, ms, false, RocksDbWindowBytesStoreSupplier.WindowStoreTypes.DEFAULT_WINDOW_STORE),
                keys, values).withLoggingEnabled(Map.of("retention.ms", Long.toString(3 * ms)));
        return overWindows(store, MAX_DIRTY);
    }

    /** Any window store (in tests: an in-memory one) behind the buffer. */
    public static <K, V> WriteBackStoreBuilder<WindowStore<K, V>> overWindows(StoreBuilder<WindowStore<K, V>> store,
            int maxDirty) {
        return new WriteBackStoreBuilder<>(store.withCachingDisabled(), WriteBackWindowStore::new, maxDirty);
    }

    /** The buffer is this store's cache: Kafka Streams' record cache is not added on top. */
    @Override
    public StoreBuilder<T> withCachingEnabled() {
        throw new UnsupportedOperationException("a write-back store is already cached");
    }

    @Override
    public StoreBuilder<T> withCachingDisabled() {
        return this;
    }

    @Override
    public StoreBuilder<T> withLoggingEnabled(Map<String, String> config) {
        return new WriteBackStoreBuilder<>(store.withLoggingEnabled(config), buffer, maxDirty);
    }

    @Override
    public StoreBuilder<T> withLoggingDisabled() {
        return new WriteBackStoreBuilder<>(store.withLoggingDisabled(), buffer, maxDirty);
    }

    @Override
    public T build() {
        return buffer.apply(store.build(), maxDirty);
    }

    @Override
    public Map<String, String> logConfig() {
        return store.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return store.loggingEnabled();
    }

    @Override
    public String name() {
        return store.name();
    }
}
