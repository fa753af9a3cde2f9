package io.tracesync.streams.state;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A write-back buffer of objects in front of a changelogged store: what Kafka Streams' record cache does for a
 * store ({@code withCachingEnabled}), for stores written on every record by their key's own object. A put is a
 * hash-map put of the object — no serialization, no sorted map of byte-array keys (together a fifth of the stream
 * thread's time in the matcher's store, docs/PERFORMANCE.md) — and only the latest value of each slot written since
 * the last commit goes to the store and its changelog, serialized once, when Kafka Streams flushes its caches
 * before committing the task ({@link CachedStateStore#flushCache}, called in the same place and in the same
 * transaction as the record cache's flush), or earlier when more than {@code maxDirty} slots wait.
 *
 * <p>Values are held by reference until written back: a caller that changes a value it read must put it back
 * (as every processor here does), and must not change it otherwise. Reads see the buffer first. A dirty close (a
 * crash, a task corrupted under exactly_once_v2) drops the buffer with the transaction it belonged to; the store
 * is then restored from the changelog as usual. Slots are written back in the order each was first written, each
 * with the record context it was last written in, so its changelog record carries that context's timestamp, as
 * the record cache's do. Interactive queries (IQv2) see what was last written back (at most one commit interval
 * behind); the buffer belongs to the stream thread.
 *
 * <p>Relies on two Kafka Streams internals, as the record cache does: {@code CachedStateStore} (the hook before a
 * commit) and the record context of {@code InternalProcessorContext}. Checked by {@code WriteBackStoreTest},
 * {@code WriteBackWindowStoreTest} and, for crash safety, by the integration tests' kill -9 runs.
 *
 * @param <T> the store written back to, uncached (caching would only add a second buffer)
 * @param <S> a slot of that store: a key, or a key and a window
 */
abstract class WriteBack<T extends StateStore, S, V> implements StateStore, CachedStateStore<S, V> {

    /** A buffered write: the value (null: deleted) and the record context it was made in. */
    record Write<V>(V value, ProcessorRecordContext context) {
    }

    final T store;
    private final int maxDirty;
    private final Map<S, Write<V>> dirty = new LinkedHashMap<>();
    private InternalProcessorContext<?, ?> context;

    WriteBack(T store, int maxDirty) {
        if (maxDirty < 1) {
            throw new IllegalArgumentException("maxDirty must be at least 1: " + maxDirty);
        }
        this.store = store;
        this.maxDirty = maxDirty;
    }

    /** Writes one slot's latest value (null: deleted) to the store. */
    abstract void writeTo(S slot, V value);

    /** The buffered write of {@code slot}, or null when it has none. */
    final Write<V> buffered(S slot) {
        return dirty.get(slot);
    }

    /** Buffers a write made by the record being processed; writes back when more than {@code maxDirty} slots wait. */
    final void buffer(S slot, V value) {
        dirty.put(slot, new Write<>(value, context == null ? null : context.recordContext()));
        if (dirty.size() > maxDirty) {
            writeBack();
        }
    }

    /** The record context a buffered write goes to the store in: by default the one it was made in. */
    ProcessorRecordContext writtenIn(ProcessorRecordContext madeIn) {
        return madeIn;
    }

    /** Writes every buffered slot's latest value to the store (and so to its changelog), in the order first written. */
    final void writeBack() {
        if (dirty.isEmpty()) {
            return;
        }
        ProcessorRecordContext current = context == null ? null : context.recordContext();
        try {
            for (Map.Entry<S, Write<V>> e : dirty.entrySet()) {
                Write<V> w = e.getValue();
                if (w.context() != null) {
                    context.setRecordContext(writtenIn(w.context()));
                }
                writeTo(e.getKey(), w.value());
            }
        } finally {
            dirty.clear();
            if (context != null) {
                context.setRecordContext(current);
            }
        }
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
    public boolean setFlushListener(CacheFlushListener<S, V> listener, boolean sendOldValues) {
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

    /** Deprecated by Kafka 4.4 (KIP-892), which still asks it of a store to checkpoint the ones that say no. */
    @Override
    @SuppressWarnings("deprecation")
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
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return store.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return store.getPosition();
    }
}
