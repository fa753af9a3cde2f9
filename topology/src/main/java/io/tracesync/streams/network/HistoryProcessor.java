package io.tracesync.streams.network;

import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.StoredValues;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The factor history, after the network step in its task: of the factor records published, those the
 * {@link HistoryGate} keeps go to the history store ({@link FactorHistoryStore}, for {@code /convert}) and are
 * forwarded to the history topic — with the version published just before one that departs, where the gate keeps
 * that too. The last version kept of each node is remembered (after a restart, read back from the store once per
 * node), and the last published: when the task starts, the network step's store of emitted factors holds it, as of
 * the same commit. At an emission at least {@link #SWEEP} after the last sweep, a share of the nodes is swept for
 * versions past the retention, so that every node is looked at once in {@link #SWEEPS_PER_ROUND} sweeps — the record
 * times (the emissions' wall clock; the input's record times in the deterministic mode), no punctuation.
 */
public final class HistoryProcessor extends ContextualProcessor<String, SyncFactor, String, SyncFactor> {

    static final Duration SWEEP = Duration.ofMinutes(1);
    private static final int SWEEPS_PER_ROUND = 60;

    private final String storeName;
    private final String emittedStoreName;
    private final HistoryGate gate;
    private final Duration retention;
    private final PipelineStats stats;
    private KeyValueStore<Bytes, SyncFactor> store;
    /** Per node the last version kept; a node not in it has not been looked up since the task started. */
    private final Map<String, FactorVersion> lastKept = new HashMap<>();
    /** Per node the last record published, with its version. */
    private final Map<String, Published> lastPublished = new HashMap<>();
    private final ArrayDeque<String> toSweep = new ArrayDeque<>();
    private int sweepShare;
    private long sweptMs;

    /**
     * @param storeName the history store
     * @param emittedStoreName the network step's store of the factors it emitted, each node's last
     */
    public HistoryProcessor(String storeName, String emittedStoreName, HistoryGate gate, Duration retention,
            PipelineStats stats) {
        this.storeName = storeName;
        this.emittedStoreName = emittedStoreName;
        this.gate = gate;
        this.retention = retention;
        this.stats = stats;
    }

    /** A supplier that declares the store, so that the step can be placed without the builder. */
    public static ProcessorSupplier<String, SyncFactor, String, SyncFactor> supplier(String storeName,
            String emittedStoreName, Serde<SyncFactor> values, HistoryGate gate, Duration retention,
            PipelineStats stats) {
        StoreBuilder<KeyValueStore<Bytes, SyncFactor>> builder = FactorHistoryStore.builder(storeName, values);
        return new ProcessorSupplier<>() {
            @Override
            public HistoryProcessor get() {
                return new HistoryProcessor(storeName, emittedStoreName, gate, retention, stats);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return Set.of(builder);
            }
        };
    }

    @Override
    public void init(ProcessorContext<String, SyncFactor> context) {
        super.init(context);
        store = context.getStateStore(storeName);
        lastKept.clear();
        lastPublished.clear();
        KeyValueStore<String, SyncFactor> emitted = context.getStateStore(emittedStoreName);
        StoredValues.forEach(emitted, r -> lastPublished.put(r.getNode(),
                new Published(r, FactorHistoryStore.version(r))));
        toSweep.clear();
        sweptMs = Long.MIN_VALUE;
    }

    @Override
    public void process(Record<String, SyncFactor> record) {
        SyncFactor r = record.value();
        String node = r.getNode();
        FactorVersion last = lastKept.containsKey(node) ? lastKept.get(node) : stored(node);
        FactorVersion v = FactorHistoryStore.version(r);
        Published before = lastPublished.put(node, new Published(r, v));
        for (FactorVersion k : gate.kept(last, before == null ? null : before.version(), v)) {
            SyncFactor kept = k == v ? r : before.record();
            FactorHistoryStore.add(store, kept, last == null ? null : last.anchorNs());
            last = k;
            stats.historyRecords.incrementAndGet();
            // stamped as it was published (its valid_from_ms is its emission's record time)
            context().forward(record.withValue(kept).withTimestamp(kept.getValidFromMs()));
        }
        lastKept.put(node, last);
        if (record.timestamp() - sweptMs >= SWEEP.toMillis()) {
            sweptMs = record.timestamp();
            sweep(record.timestamp());
        }
    }

    private record Published(SyncFactor record, FactorVersion version) {
    }

    /** The node's newest version in the store, or null. */
    private FactorVersion stored(String node) {
        try (KeyValueIterator<Bytes, SyncFactor> it = store.reverseRange(FactorHistoryStore.first(node),
                FactorHistoryStore.last(node))) {
            return it.hasNext() ? FactorHistoryStore.version(it.next().value) : null;
        }
    }

    /** Deletes the versions past the retention of a share of the nodes: one seek per node. */
    private void sweep(long now) {
        if (toSweep.isEmpty()) {
            toSweep.addAll(lastKept.keySet());
            sweepShare = Math.max(1, (toSweep.size() + SWEEPS_PER_ROUND - 1) / SWEEPS_PER_ROUND);
        }
        long before = now - retention.toMillis();
        int expired = 0;
        for (int i = 0; i < sweepShare && !toSweep.isEmpty(); i++) {
            expired += FactorHistoryStore.expire(store, toSweep.poll(), before);
        }
        stats.historyExpired.addAndGet(expired);
    }
}
