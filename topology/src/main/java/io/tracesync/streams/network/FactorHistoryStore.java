package io.tracesync.streams.network;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.history.FactorVersion;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The network task's factor history: the versions it published that the history keeps, keyed by node and anchor so that the versions of
 * one node lie together in anchor order — the one in force at a local time t is the last key at or below (node,
 * t), the next one the first above it, two seeks of RocksDB. A version anchored at or before versions held
 * supersedes them (the newer publication answers for those times, as {@code NodeHistory} holds it). Versions
 * published longer ago than the retention are deleted, node by node, the newest of each node kept.
 *
 * <p>Key: the node's UTF-8 bytes after their length (2 bytes), then the anchor (8 bytes, big-endian, sign bit
 * flipped), so that byte order is (node, anchor) order.
 */
public final class FactorHistoryStore {

    /** The key serde of the store: its keys are {@link #key} bytes. */
    public static final Serde<Bytes> KEYS = Serdes.Bytes();

    private FactorHistoryStore() {
    }

    /** A persistent store with a changelog (compacted: superseded and expired versions become tombstones). */
    public static StoreBuilder<KeyValueStore<Bytes, SyncFactor>> builder(String name, Serde<SyncFactor> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), KEYS, values);
    }

    /** The key of {@code node}'s version anchored at {@code anchorNs}. */
    public static Bytes key(String node, long anchorNs) {
        byte[] name = node.getBytes(StandardCharsets.UTF_8);
        if (name.length > 0xFFFF) {
            throw new IllegalArgumentException("node name of " + name.length + " bytes");
        }
        return Bytes.wrap(ByteBuffer.allocate(2 + name.length + 8).putShort((short) name.length).put(name)
                .putLong(anchorNs ^ Long.MIN_VALUE).array());
    }

    /** The smallest key of {@code node}. */
    public static Bytes first(String node) {
        return key(node, Long.MIN_VALUE);
    }

    /** The largest key of {@code node}. */
    public static Bytes last(String node) {
        return key(node, Long.MAX_VALUE);
    }

    /** A record as the core's history holds it. */
    public static FactorVersion version(SyncFactor r) {
        PublishedFactor f = PublishedFactor.of(r);
        return new FactorVersion(r.getVersion(), r.getReference(), f.factor(), r.getValidFromMs(), f.steadyFromNs(),
                f.datasheet());
    }

    /** A record's anchor; 0 for a record without one (an older writer's: bounds that do not grow). */
    public static long anchor(SyncFactor f) {
        return f.getAnchorNs() == null ? 0 : f.getAnchorNs();
    }

    /**
     * Adds a published version; the node's versions anchored at or after it, superseded, are deleted first
     * (only looked for when {@code previousAnchor}, the node's last published anchor, says there are any).
     */
    static void add(KeyValueStore<Bytes, SyncFactor> store, SyncFactor f, Long previousAnchor) {
        String node = f.getNode();
        long anchor = anchor(f);
        if (previousAnchor != null && previousAnchor >= anchor) {
            deleteAll(store, key(node, anchor), last(node));
        }
        store.put(key(node, anchor), f);
    }

    /**
     * Deletes {@code node}'s versions published before {@code beforeMs} (their {@code valid_from_ms}), oldest
     * first, keeping the newest.
     *
     * @return how many were deleted
     */
    static int expire(KeyValueStore<Bytes, SyncFactor> store, String node, long beforeMs) {
        List<Bytes> old = new ArrayList<>();
        try (KeyValueIterator<Bytes, SyncFactor> it = store.range(first(node), last(node))) {
            while (it.hasNext()) {
                KeyValue<Bytes, SyncFactor> kv = it.next();
                if (kv.value.getValidFromMs() >= beforeMs || !it.hasNext()) {
                    break;
                }
                old.add(kv.key);
            }
        }
        old.forEach(store::delete);
        return old.size();
    }

    private static void deleteAll(KeyValueStore<Bytes, SyncFactor> store, Bytes from, Bytes to) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, SyncFactor> it = store.range(from, to)) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        keys.forEach(store::delete);
    }
}
