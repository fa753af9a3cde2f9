package io.tracesync.streams.iq;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.network.FactorHistoryStore;
import io.tracesync.streams.network.NetworkProcessor;
import io.tracesync.streams.network.RegionLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * a node's factor history around a local time, the latest summary of every link and the latest tree snapshot. The
 * network task has one partition, so one instance holds the active copy of all of them ({@link #activeHost}); the
 * queries here read this instance's copy and require it to be the active one, so an answer is never a stale
 * standby's. With {@code network.regions} the stores are spread over the regions' partitions: an instance answers
 * from those it holds.
 */
public final class NetworkQueries {

    /** The network stores' only partition. */
    private static final int PARTITION = 0;

    private final KafkaStreams streams;
    /**
     * With {@code network.regions}: the factors are spread over the regions' partitions and the links over the
     * regions' and the backbone's stores, each read in every partition this instance holds; there is no tree.
     */
    private final boolean regional;

    public NetworkQueries(KafkaStreams streams, boolean regional) {
        this.streams = streams;
        this.regional = regional;
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
        for (String store : linkStores()) {
            Object stored = get(store, KeyQuery.<LinkId, Object>withKey(id));
            if (stored != null) {
                return Optional.of(summary(stored));
            }
        }
        return Optional.empty();
    }

    /** Every link's latest summary (in the store's order). */
    public List<LinkSummary> links() {
        List<LinkSummary> out = new ArrayList<>();
        for (String store : linkStores()) {
            values(store, RangeQuery.<LinkId, Object>withNoBounds()).forEach(stored -> out.add(summary(stored)));
        }
        return out;
    }

    /** A stored link's summary: a region task's as it came, with its forest's weight. */
    private static LinkSummary summary(Object stored) {
        return stored instanceof RegionLink l ? l.summary() : (LinkSummary) stored;
    }

    private List<String> linkStores() {
        return regional ? List.of(TracesyncTopology.REGION_LINK_STORE, TracesyncTopology.BACKBONE_LINK_STORE)
                : List.of(TracesyncTopology.NETWORK_LINK_STORE);
    }

    public Optional<TreeSnapshot> tree() {
        return regional ? Optional.empty() : Optional.ofNullable(get(TracesyncTopology.NETWORK_TREE_STORE,
                KeyQuery.<String, TreeSnapshot>withKey(NetworkProcessor.TREE_KEY)));
    }

    private <K, V> V get(String store, KeyQuery<K, V> query) {
        for (V v : answers(store, query)) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private <K, V> List<V> values(String store, RangeQuery<K, V> query) {
        List<V> out = new ArrayList<>();
        for (KeyValueIterator<K, V> it : answers(store, query)) {
            try (it) {
                it.forEachRemaining(kv -> out.add(kv.value));
            }
        }
        return out;
    }

    private SyncFactor first(RangeQuery<Bytes, SyncFactor> query) {
        SyncFactor found = null;
        for (KeyValueIterator<Bytes, SyncFactor> it : answers(TracesyncTopology.NETWORK_FACTOR_HISTORY_STORE, query)) {
            try (it) {
                if (found == null && it.hasNext()) {
                    found = it.next().value;
                }
            }
        }
        return found;
    }

    /** The query's result in each partition this instance holds actively: partition 0 unless regional. */
    private <R> List<R> answers(String store, Query<R> query) {
        Map<Integer, QueryResult<R>> results;
        try {
            StateQueryRequest<R> request = StateQueryRequest.inStore(store).withQuery(query).requireActive();
            results = streams.query(regional ? request : request.withPartitions(Set.of(PARTITION)))
                    .getPartitionResults();
        } catch (InvalidStateStoreException | IllegalStateException e) {
            throw new StoreUnavailableException(store + " cannot be queried now: " + e.getMessage(), e);
        }
        if (results.isEmpty() || !regional && results.get(PARTITION) == null) {
            throw new StoreUnavailableException(store + " is not on this instance");
        }
        List<R> out = new ArrayList<>();
        for (QueryResult<R> result : results.values()) {
            if (result.isFailure()) {
                throw new StoreUnavailableException(store + ": " + result.getFailureReason() + ": "
                        + result.getFailureMessage());
            }
            out.add(result.getResult());
        }
        return out;
    }
}
