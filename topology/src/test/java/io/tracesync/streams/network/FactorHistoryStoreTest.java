package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class FactorHistoryStoreTest {

    private final Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID())));

    /** Keys sort by node, then by anchor as a signed number: a node's keys never interleave with another's. */
    @Property(tries = 2000)
    void keysSortByNodeThenAnchor(@ForAll @StringLength(max = 6) String a, @ForAll long x,
            @ForAll @StringLength(max = 6) String b, @ForAll long y) {
        int byKey = Integer.signum(FactorHistoryStore.key(a, x).compareTo(FactorHistoryStore.key(b, y)));
        if (a.equals(b)) {
            assertEquals(Integer.signum(Long.compare(x, y)), byKey);
        } else {
            int byNode = Integer.signum(FactorHistoryStore.first(a).compareTo(FactorHistoryStore.first(b)));
            assertEquals(byNode, byKey, "every key of a node on the same side of every key of the other");
            assertEquals(byNode, Integer.signum(FactorHistoryStore.last(a).compareTo(FactorHistoryStore.first(b))));
        }
    }

    private KeyValueStore<Bytes, SyncFactor> store() {
        KeyValueStore<Bytes, SyncFactor> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("history"),
                FactorHistoryStore.KEYS, topics.syncFactor).withLoggingDisabled().build();
        MockProcessorContext<String, SyncFactor> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    private static SyncFactor version(String node, long number, long anchor, long publishedMs) {
        return SyncFactor.newBuilder().setNode(node).setComponent("r").setReference("r")
                .setMap(new ClockMap(1.0, 0.0, 0.0, 0.0)).setAnchorNs(anchor).setValidFromMs(publishedMs)
                .setVersion(number).build();
    }

    private static List<Long> versions(KeyValueStore<Bytes, SyncFactor> store, String node) {
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, SyncFactor> it = store.range(FactorHistoryStore.first(node),
                FactorHistoryStore.last(node))) {
            it.forEachRemaining(kv -> out.add(kv.value.getVersion()));
        }
        return out;
    }

    @Test
    void aVersionAnchoredAtOrBeforeHeldOnesSupersedesThem() {
        KeyValueStore<Bytes, SyncFactor> store = store();
        FactorHistoryStore.add(store, version("n1", 1, 100, 0), null);
        FactorHistoryStore.add(store, version("n1", 2, 200, 0), 100L);
        FactorHistoryStore.add(store, version("n1", 3, 300, 0), 200L);
        FactorHistoryStore.add(store, version("n2", 1, 250, 0), null);
        FactorHistoryStore.add(store, version("n1", 4, 200, 0), 300L);
        assertEquals(List.of(1L, 4L), versions(store, "n1"));
        assertEquals(List.of(1L), versions(store, "n2"), "another node's versions stay");
    }

    @Test
    void versionsPastTheRetentionExpireOldestFirstButTheNewestStays() {
        KeyValueStore<Bytes, SyncFactor> store = store();
        for (int k = 1; k <= 5; k++) {
            FactorHistoryStore.add(store, version("n1", k, k * 100L, k * 1000L), k == 1 ? null : (k - 1) * 100L);
        }
        assertEquals(2, FactorHistoryStore.expire(store, "n1", 3000));
        assertEquals(List.of(3L, 4L, 5L), versions(store, "n1"));
        assertEquals(2, FactorHistoryStore.expire(store, "n1", Long.MAX_VALUE));
        assertEquals(List.of(5L), versions(store, "n1"));
        assertTrue(FactorHistoryStore.expire(store, "n9", Long.MAX_VALUE) == 0, "a node without history");
    }
}
