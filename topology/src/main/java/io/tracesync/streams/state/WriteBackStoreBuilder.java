package io.tracesync.streams.state;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds a {@link WriteBackStore} over a persistent (RocksDB), changelogged key-value store of the given serdes. The
 * store, its changelog topic and its bytes are those of {@code Stores.keyValueStoreBuilder(...)}; only the buffer
 * in front differs, so switching between the two needs no reset.
 */
public final class WriteBackStoreBuilder<K, V> implements StoreBuilder<KeyValueStore<K, V>> {

    /** Keys buffered before a write-back even without a commit: bounds the heap under long commit intervals. */
    static final int MAX_DIRTY = 10_000;

    private final StoreBuilder<KeyValueStore<K, V>> store;
    private final int maxDirty;

    private WriteBackStoreBuilder(StoreBuilder<KeyValueStore<K, V>> store, int maxDirty) {
        this.store = store;
        this.maxDirty = maxDirty;
    }

    /** A persistent store named {@code name}, changelogged, behind a write-back buffer of up to 10,000 keys. */
    public static <K, V> WriteBackStoreBuilder<K, V> persistent(String name, Serde<K> keys, Serde<V> values) {
        return new WriteBackStoreBuilder<>(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), keys, values).withCachingDisabled(),
                MAX_DIRTY);
    }

    /** Any key-value store (in tests: an in-memory one) behind the buffer. */
    public static <K, V> WriteBackStoreBuilder<K, V> over(StoreBuilder<KeyValueStore<K, V>> store, int maxDirty) {
        return new WriteBackStoreBuilder<>(store.withCachingDisabled(), maxDirty);
    }

    /** The buffer is this store's cache: Kafka Streams' record cache is not added on top. */
    @Override
    public StoreBuilder<KeyValueStore<K, V>> withCachingEnabled() {
        throw new UnsupportedOperationException("a write-back store is already cached");
    }

    @Override
    public StoreBuilder<KeyValueStore<K, V>> withCachingDisabled() {
        return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<K, V>> withLoggingEnabled(Map<String, String> config) {
        return new WriteBackStoreBuilder<>(store.withLoggingEnabled(config), maxDirty);
    }

    @Override
    public StoreBuilder<KeyValueStore<K, V>> withLoggingDisabled() {
        return new WriteBackStoreBuilder<>(store.withLoggingDisabled(), maxDirty);
    }

    @Override
    public KeyValueStore<K, V> build() {
        return new WriteBackStore<>(store.build(), maxDirty);
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
