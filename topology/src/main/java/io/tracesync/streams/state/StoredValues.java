package io.tracesync.streams.state;

import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** A store's values read in key order, as a task rebuilds what it holds in memory from its stores when it starts. */
public final class StoredValues {

    private StoredValues() {
    }

    /** Gives {@code action} every value of {@code store}; returns how many. */
    public static <K, V> int forEach(ReadOnlyKeyValueStore<K, V> store, Consumer<? super V> action) {
        int n = 0;
        try (KeyValueIterator<K, V> it = store.all()) {
            while (it.hasNext()) {
                action.accept(it.next().value);
                n++;
            }
        }
        return n;
    }
}
