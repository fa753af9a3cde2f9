package io.tracesync.streams.matcher;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/** The matcher's store for unit tests: in memory, keeping what the production store keeps. */
final class InMemoryGenerations {

    private InMemoryGenerations() {
    }

    /**
     * A window store named {@code name}, initialized and added to {@code context}, of the production store's
     * retention (two rotations less 1 ms): it reads the latest generation written and the one before, and deletes
     * older ones at its next write.
     */
    static WindowStore<String, SegmentFlows> add(MockProcessorContext<?, ?> context, String name, Duration rotation) {
        WindowStore<String, SegmentFlows> store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore(name,
                        rotation.multipliedBy(2).minusMillis(1), rotation, false), Serdes.String(),
                SegmentFlows.serde()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }
}
