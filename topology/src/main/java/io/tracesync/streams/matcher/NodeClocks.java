package io.tracesync.streams.matcher;

import io.tracesync.streams.errors.InvalidTraceEventException;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Rejects absurd clock jumps: an event whose timestamp is more than {@code maxJump} away (either way) from the
 * previous accepted event of its node. The state is one entry per node in the task's store, so with a node's events
 * spread over several input partitions each partition is checked on its own: the jump is measured from the node's
 * previous accepted event in the same partition. A clock that really steps is followed: when a rejected event lies
 * within {@code maxJump} of the previous rejected one, the two agree and the node's clock is taken from them; so a
 * real step costs one dead letter, while isolated absurd timestamps never move the reference.
 */
public final class NodeClocks {

    /** No rejected event since the last accepted one. */
    private static final long NONE = Long.MIN_VALUE;

    private final KeyValueStore<String, long[]> store;
    private final long maxJumpNs;

    /** @param maxJump the largest accepted step ({@code check.max.clock.jump}); zero leaves clocks unchecked */
    public NodeClocks(KeyValueStore<String, long[]> store, Duration maxJump) {
        this.store = store;
        this.maxJumpNs = maxJump.isZero() ? Long.MAX_VALUE : maxJump.toNanos();
    }

    /**
     * The store of {@code name}: node → (last accepted timestamp, last rejected one or none), written on every event,
     * so behind a write-back buffer (one changelog record per node and commit).
     */
    public static StoreBuilder<KeyValueStore<String, long[]>> store(String name) {
        return WriteBackStoreBuilder.persistent(name, Serdes.String(), serde());
    }

    /** A node's entry: two big-endian longs. */
    static Serde<long[]> serde() {
        return Serdes.serdeFrom(
                (topic, v) -> v == null ? null : ByteBuffer.allocate(16).putLong(v[0]).putLong(v[1]).array(),
                (topic, b) -> {
                    if (b == null) {
                        return null;
                    }
                    ByteBuffer in = ByteBuffer.wrap(b);
                    return new long[] {in.getLong(), in.getLong()};
                });
    }

    /** Records {@code tsNs} as {@code node}'s latest time, or throws if it jumps from the previous one. */
    public void check(String node, long tsNs) {
        long[] held = store.get(node);
        if (held == null || within(held[0], tsNs) || (held[1] != NONE && within(held[1], tsNs))) {
            store.put(node, new long[] {tsNs, NONE});
            return;
        }
        store.put(node, new long[] {held[0], tsNs});
        throw new InvalidTraceEventException("clock jump: node " + node + " timestamp " + tsNs + " is "
                + Math.subtractExact(tsNs, held[0]) + " ns from its previous event's " + held[0]
                + " (check.max.clock.jump " + maxJumpNs + " ns)");
    }

    private boolean within(long from, long to) {
        return Math.abs(Math.subtractExact(to, from)) <= maxJumpNs;
    }
}
