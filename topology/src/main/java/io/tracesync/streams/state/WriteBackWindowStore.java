package io.tracesync.streams.state;

import java.time.Instant;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * A {@link WriteBack} buffer in front of a changelogged window store whose windows are periods of the wall clock
 * (the matcher's generations): a slot is a key and its window's start. Point reads ({@link #fetch(Object, long)})
 * see the buffer; every range read first writes the buffer back, then reads the store.
 *
 * <p>Each write's changelog record carries the wall-clock time it is written back at, not its input record's
 * timestamp: a window store's changelog is deleted by time as well as compacted, and input timestamps (on the traced
 * nodes' own clocks, or of an archive being replayed) would have the broker delete records the store still needs.
 */
public final class WriteBackWindowStore<K, V> extends WriteBack<WindowStore<K, V>, WriteBackWindowStore.Slot<K>, V>
        implements WindowStore<K, V> {

    /** A key in the window starting at {@code start}. */
    public record Slot<K>(K key, long start) {
    }

    /** @param store the store written back to, uncached (caching would only add a second buffer) */
    public WriteBackWindowStore(WindowStore<K, V> store, int maxDirty) {
        super(store, maxDirty);
    }

    @Override
    void writeTo(Slot<K> slot, V value) {
        store.put(slot.key(), value, slot.start());
    }

    @Override
    public V fetch(K key, long start) {
        Write<V> w = buffered(new Slot<>(key, start));
        return w != null ? w.value() : store.fetch(key, start);
    }

    @Override
    public void put(K key, V value, long start) {
        buffer(new Slot<>(key, start), value);
    }

    /** Stamped with the wall clock at the write-back (class comment). */
    @Override
    ProcessorRecordContext writtenIn(ProcessorRecordContext madeIn) {
        return new ProcessorRecordContext(System.currentTimeMillis(), madeIn.offset(), madeIn.partition(),
                madeIn.topic(), madeIn.headers());
    }

    @Override
    public WindowStoreIterator<V> fetch(K key, long timeFrom, long timeTo) {
        writeBack();
        return store.fetch(key, timeFrom, timeTo);
    }

    @Override
    public WindowStoreIterator<V> fetch(K key, Instant timeFrom, Instant timeTo) {
        writeBack();
        return store.fetch(key, timeFrom, timeTo);
    }

    @Override
    public WindowStoreIterator<V> backwardFetch(K key, long timeFrom, long timeTo) {
        writeBack();
        return store.backwardFetch(key, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetch(K keyFrom, K keyTo, long timeFrom, long timeTo) {
        writeBack();
        return store.fetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetch(K keyFrom, K keyTo, Instant timeFrom, Instant timeTo) {
        writeBack();
        return store.fetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardFetch(K keyFrom, K keyTo, long timeFrom, long timeTo) {
        writeBack();
        return store.backwardFetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetchAll(long timeFrom, long timeTo) {
        writeBack();
        return store.fetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetchAll(Instant timeFrom, Instant timeTo) {
        writeBack();
        return store.fetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardFetchAll(long timeFrom, long timeTo) {
        writeBack();
        return store.backwardFetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> all() {
        writeBack();
        return store.all();
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> backwardAll() {
        writeBack();
        return store.backwardAll();
    }
}
