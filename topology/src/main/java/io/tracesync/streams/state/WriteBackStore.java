package io.tracesync.streams.state;

import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A {@link WriteBack} buffer in front of a changelogged key-value store. Range scans and counts first write the
 * buffer back, then read the store.
 */
public final class WriteBackStore<K, V> extends WriteBack<KeyValueStore<K, V>, K, V> implements KeyValueStore<K, V> {

    /** @param store the store written back to, uncached (caching would only add a second buffer) */
    public WriteBackStore(KeyValueStore<K, V> store, int maxDirty) {
        super(store, maxDirty);
    }

    @Override
    void writeTo(K key, V value) {
        if (value == null) {
            store.delete(key);
        } else {
            store.put(key, value);
        }
    }

    @Override
    public V get(K key) {
        Write<V> w = buffered(key);
        return w != null ? w.value() : store.get(key);
    }

    @Override
    public void put(K key, V value) {
        buffer(key, value);
    }

    @Override
    public V putIfAbsent(K key, V value) {
        V old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<K, V>> entries) {
        for (KeyValue<K, V> e : entries) {
            put(e.key, e.value);
        }
    }

    @Override
    public V delete(K key) {
        V old = get(key);
        put(key, null);
        return old;
    }

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        writeBack();
        return store.range(from, to);
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        writeBack();
        return store.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<K, V> all() {
        writeBack();
        return store.all();
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        writeBack();
        return store.reverseAll();
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(P prefix, PS prefixKeySerializer) {
        writeBack();
        return store.prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        writeBack();
        return store.approximateNumEntries();
    }
}
