package io.tracesync.streams.state;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A write-back buffer of objects in front of a changelogged key-value store: what Kafka Streams' record cache does
 * for a store ({@code withCachingEnabled}), for stores written on every record by their key's own object. A put is
 * a hash-map put of the object — no serialization, no sorted map of byte-array keys (together a fifth of the
 * stream thread's time in the matcher's store, docs/PERFORMANCE.md) — and only the latest value of each key
 * written since the last commit goes to the store and its changelog, serialized once, when Kafka Streams flushes
 * its caches before committing the task ({@link CachedStateStore#flushCache}, called in the same place and in
 * the same transaction as the record cache's flush), or earlier when more than {@code maxDirty} keys wait.
 *
 * <p>Values are held by reference until written back: a caller that changes a value it read must put it back
 * (as every processor here does), and must not change it otherwise. Reads see the buffer first. Range scans and
 * counts first write the buffer back, then read the store. A dirty close (a crash, a task corrupted under
 * exactly_once_v2) drops the buffer with the transaction it belonged to; the store is then restored from the
 * changelog as usual. Each buffered write keeps the record context it was
 * made in, so its changelog record carries that record's timestamp, as the record cache's do.
 *
 * <p>Relies on two Kafka Streams internals, as the record cache does: {@code CachedStateStore} (the hook before a
 * commit) and the record context of {@code InternalProcessorContext}. Checked by {@code WriteBackStoreTest} and,
 * for crash safety, by the integration tests' kill -9 runs.
 */
public final class WriteBackStore<K, V> implements KeyValueStore<K, V>, CachedStateStore<K, V> {

    /** A buffered write: the value (null: deleted) and the record context it was written in. */
    private record Write<V>(V value, ProcessorRecordContext context) {
    }

    private final KeyValueStore<K, V> store;
    private final int maxDirty;
    private final Map<K, Write<V>> dirty = new LinkedHashMap<>();
    private InternalProcessorContext<?, ?> context;

    /** @param store the store written back to, uncached (caching would only add a second buffer) */
    public WriteBackStore(KeyValueStore<K, V> store, int maxDirty) {
        if (maxDirty < 1) {
            throw new IllegalArgumentException("maxDirty must be at least 1: " + maxDirty);
        }
        this.store = store;
        this.maxDirty = maxDirty;
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public void init(StateStoreContext stateStoreContext, StateStore root) {
        dirty.clear();
        context = stateStoreContext instanceof InternalProcessorContext<?, ?> internal ? internal : null;
        store.init(stateStoreContext, root);
    }

    @Override
    public V get(K key) {
        Write<V> w = dirty.get(key);
        return w != null ? w.value() : store.get(key);
    }

    @Override
    public void put(K key, V value) {
        dirty.put(key, new Write<>(value, context == null ? null : context.recordContext()));
        if (dirty.size() > maxDirty) {
            writeBack();
        }
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

    /** Writes every buffered key's latest value to the store (and so to its changelog), in the order first written. */
    private void writeBack() {
        if (dirty.isEmpty()) {
            return;
        }
        ProcessorRecordContext current = context == null ? null : context.recordContext();
        try {
            for (Map.Entry<K, Write<V>> e : dirty.entrySet()) {
                Write<V> w = e.getValue();
                if (w.context() != null) {
                    context.setRecordContext(w.context());
                }
                if (w.value() == null) {
                    store.delete(e.getKey());
                } else {
                    store.put(e.getKey(), w.value());
                }
            }
        } finally {
            dirty.clear();
            if (context != null) {
                context.setRecordContext(current);
            }
        }
    }

    @Override
    public void flushCache() {
        writeBack();
        if (store instanceof CachedStateStore<?, ?> cached) {
            cached.flushCache();
        }
    }

    @Override
    public void clearCache() {
        dirty.clear();
        if (store instanceof CachedStateStore<?, ?> cached) {
            cached.clearCache();
        }
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<K, V> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        writeBack();
        store.commit(changelogOffsets);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return store.committedOffset(partition);
    }

    @Override
    public boolean managesOffsets() {
        return store.managesOffsets();
    }

    @Override
    public void close() {
        dirty.clear();
        store.close();
    }

    @Override
    public boolean persistent() {
        return store.persistent();
    }

    @Override
    public boolean isOpen() {
        return store.isOpen();
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

    /**
     * Interactive queries (IQv2) see what was last written back (at most one commit interval behind). The buffer
     * belongs to the stream thread: the other methods are not for other threads (IQv1 reads of these stores).
     */
    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return store.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return store.getPosition();
    }
}
