package io.tracesync.streams.iq;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.network.FactorHistoryStore;
import io.tracesync.streams.network.NetworkProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Interactive queries (IQv2) of the network task's stores: the latest emitted factor of every node, the versions of
 * a node's factor history around a local time, the latest summary of every link and the latest tree snapshot. The network task has one partition, so one instance holds
 * the active copy of all three ({@link #activeHost}); the queries here read this instance's copy and require it to
 * be the active one, so an answer is never a stale standby's.
 */
public final class NetworkQueries {

    /** The network stores' only partition. */
    private static final int PARTITION = 0;

    private final KafkaStreams streams;

    public NetworkQueries(KafkaStreams streams) {
        this.streams = streams;
    }

    /**
     * The instance ({@code application.server}) holding the active network task, or empty while none does
     * (starting, rebalancing).
     */
    public Optional<HostInfo> activeHost() {
        try {
            return streams.streamsMetadataForStore(TracesyncTopology.NETWORK_FACTOR_STORE).stream()
                    .filter(m -> m.stateStoreNames().contains(TracesyncTopology.NETWORK_FACTOR_STORE))
                    .map(StreamsMetadata::hostInfo).findFirst();
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    /**
     * The versions of {@code node} around its local time t in the factor history: the one in force (the newest
     * anchored at or before t) and the next (the oldest anchored after it), each null where there is none.
     */
    public record Around(SyncFactor inForce, SyncFactor next) {
    }

    /** The versions of {@code node}'s history around its local time t ({@link FactorHistoryStore}): two seeks. */
    public Around history(String node, long t) {
        SyncFactor inForce = first(RangeQuery.<Bytes, SyncFactor>withRange(FactorHistoryStore.first(node),
                FactorHistoryStore.key(node, t)).withDescendingKeys());
        SyncFactor next = t == Long.MAX_VALUE ? null : first(RangeQuery.<Bytes, SyncFactor>withRange(
                FactorHistoryStore.key(node, t + 1), FactorHistoryStore.last(node)));
        return new Around(inForce, next);
    }

    private SyncFactor first(RangeQuery<Bytes, SyncFactor> query) {
        try (KeyValueIterator<Bytes, SyncFactor> it = answer(TracesyncTopology.NETWORK_FACTOR_HISTORY_STORE, query)) {
            return it.hasNext() ? it.next().value : null;
        }
    }

    public Optional<SyncFactor> factor(String node) {
        return Optional.ofNullable(get(TracesyncTopology.NETWORK_FACTOR_STORE, KeyQuery.withKey(node)));
    }

    /** Every node's latest factor, by node name. */
    public List<SyncFactor> factors() {
        return values(TracesyncTopology.NETWORK_FACTOR_STORE, RangeQuery.<String, SyncFactor>withNoBounds());
    }

    /** The link between two nodes, given in either order. */
    public Optional<LinkSummary> link(String a, String b) {
        LinkId id = a.compareTo(b) <= 0 ? new LinkId(a, b) : new LinkId(b, a);
        return Optional.ofNullable(get(TracesyncTopology.NETWORK_LINK_STORE, KeyQuery.withKey(id)));
    }

    /** Every link's latest summary (in the store's order). */
    public List<LinkSummary> links() {
        return values(TracesyncTopology.NETWORK_LINK_STORE, RangeQuery.<LinkId, LinkSummary>withNoBounds());
    }

    public Optional<TreeSnapshot> tree() {
        return Optional.ofNullable(get(TracesyncTopology.NETWORK_TREE_STORE,
                KeyQuery.<String, TreeSnapshot>withKey(NetworkProcessor.TREE_KEY)));
    }

    private <K, V> V get(String store, KeyQuery<K, V> query) {
        return answer(store, query);
    }

    private <K, V> List<V> values(String store, RangeQuery<K, V> query) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<K, V> it = answer(store, query)) {
            while (it.hasNext()) {
                KeyValue<K, V> kv = it.next();
                out.add(kv.value);
            }
        }
        return out;
    }

    private <R> R answer(String store, Query<R> query) {
        QueryResult<R> result;
        try {
            result = streams.query(StateQueryRequest.inStore(store).withQuery(query)
                    .withPartitions(Set.of(PARTITION)).requireActive()).getPartitionResults().get(PARTITION);
        } catch (InvalidStateStoreException | IllegalStateException e) {
            throw new StoreUnavailableException(store + " cannot be queried now: " + e.getMessage(), e);
        }
        if (result == null) {
            throw new StoreUnavailableException(store + " is not on this instance");
        }
        if (result.isFailure()) {
            throw new StoreUnavailableException(store + ": " + result.getFailureReason() + ": "
                    + result.getFailureMessage());
        }
        return result.getResult();
    }
}
