package io.tracesync.bench;

import static io.tracesync.streams.config.TracesyncConfig.LINKS_WITH_NETWORK_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG;

import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.Quality;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The floor: a Kafka Streams application of the same shape as {@link TracesyncTopology} that does none of
 * tracesync's work — what any application of this shape pays for its plumbing. The same input topic and serdes,
 * the same hops (the {@code segments} repartition unless {@code traces.partitioned.by.segment}, the {@code pairs}
 * repartition by link, the one-partition {@code network} hop unless {@code links.with.network}), the same sinks,
 * and Kafka's own stores, with Kafka's record cache, where tracesync has its own: per event one read and one write
 * keyed by segment (where the matcher is), per pair one write (where the link step is), per link summary one
 * write (where the network is). The segments' store is a key-value store: a window store's fetch through the
 * record cache scans the cache (a million events took more than ten minutes of CPU here), no floor at all. Pairs are the first send and receive sharing a segment key, batched per link and forwarded
 * once per commit interval as tracesync batches them; the link step forwards one summary per changed link and
 * commit interval (tracesync: one per change of its bounds). No checks, no hull, no network, no factors.
 * {@link FloorCounts} counts the store reads and writes, so that the anchor cannot become cheap by accident.
 */
final class FloorTopology {

    static final String SEGMENTS = "floor-segments";
    static final String LINKS = "floor-links";
    static final String NETWORK = "floor-network";

    private FloorTopology() {
    }

    /** Kafka's stores the floor keeps its state in, both with a changelog and Kafka's record cache. */
    enum StoreKind {
        /** Kafka's default persistent stores. */
        ROCKSDB,
        /** Kafka's in-memory stores: the cheaper plumbing. */
        IN_MEMORY,
        /** No state store: maps in the heap, no changelog — the hops alone, not fault-tolerant. */
        HEAP
    }

    /** A processor's state: a Kafka store, or a map in the heap for {@link StoreKind#HEAP}. */
    private record Table<K, V>(Function<K, V> get, BiConsumer<K, V> put) {

        static <K, V> Table<K, V> of(ProcessorContext<?, ?> context, String store, boolean heap) {
            if (heap) {
                Map<K, V> map = new HashMap<>();
                return new Table<>(map::get, map::put);
            }
            KeyValueStore<K, V> kv = context.getStateStore(store);
            return new Table<>(kv::get, kv::put);
        }
    }

    static Topology build(Settings settings, Topics topics, FloorCounts counts, StoreKind kind) {
        StreamsBuilder b = TracesyncTopology.builder(settings);
        Duration commit = Duration.ofMillis(Long.parseLong(settings.streamsProperties()
                .getProperty(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")));
        boolean heap = kind == StoreKind.HEAP;
        if (!heap) {
            b.addStateStore(store(SEGMENTS, kind, Serdes.String(), topics.traceEvent));
            b.addStateStore(store(LINKS, kind, topics.linkId, topics.matchedPairs));
            b.addStateStore(store(NETWORK, kind, topics.linkId, topics.linkSummary));
        }
        KStream<String, TraceEvent> keyed = TracesyncTopology.source(b, topics).selectKey((k, v) -> k.getSeq() + ":" + k.getAckSeq() + ":"
                + k.getFlags(), Named.as("check"));
        if (!settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG)) {
            keyed = keyed.repartition(Repartitioned.with(Serdes.String(), topics.traceEvent).withName("segments"));
        }
        boolean withNetwork = settings.bool(LINKS_WITH_NETWORK_CONFIG);
        Repartitioned<LinkId, MatchedPairs> byLink = Repartitioned.with(topics.linkId, topics.matchedPairs)
                .withName("pairs");
        KStream<LinkId, LinkSummary> summaries = keyed
                .process(() -> new Match(commit, counts, heap), Named.as("match"), stores(heap, SEGMENTS))
                .repartition(withNetwork ? byLink.withNumberOfPartitions(1) : byLink)
                .process(() -> new Links(commit, counts, heap), Named.as("links"), stores(heap, LINKS));
        summaries.to(topics.links, Produced.with(topics.linkId, topics.linkSummary).withName("to-links"));
        KStream<LinkId, LinkSummary> toNetwork = withNetwork ? summaries : summaries.repartition(
                Repartitioned.with(topics.linkId, topics.linkSummary).withName("network").withNumberOfPartitions(1));
        // tracesync's factor and tree outputs are its own work: the floor keeps their sinks and stores (the emitted
        // factors the history step reads) and writes nothing there
        TracesyncTopology.addEmittedFactorStore(b, topics);
        TracesyncTopology.writeOutputs(toNetwork.process(() -> new Network(counts, heap), Named.as("network"),
                stores(heap, NETWORK)), settings, topics, new PipelineStats());
        return b.build(settings.streamsProperties());
    }

    /** A key-value store of this kind, with Kafka's record cache and a changelog. */
    private static <K, V> StoreBuilder<KeyValueStore<K, V>> store(String name, StoreKind kind, Serde<K> keys,
            Serde<V> values) {
        return Stores.keyValueStoreBuilder(kind == StoreKind.ROCKSDB ? Stores.persistentKeyValueStore(name)
                : Stores.inMemoryKeyValueStore(name), keys, values).withCachingEnabled();
    }

    private static String[] stores(boolean heap, String store) {
        return heap ? new String[0] : new String[] {store};
    }

    /** Per event a store read and write; the first send and receive of a segment make a pair. */
    private static final class Match extends ContextualProcessor<String, TraceEvent, LinkId, MatchedPairs> {
        private final Duration commit;
        private final FloorCounts counts;
        private final boolean heap;
        private final Map<LinkId, List<MatchedPair>> batches = new LinkedHashMap<>();
        private Table<String, TraceEvent> store;

        Match(Duration commit, FloorCounts counts, boolean heap) {
            this.commit = commit;
            this.counts = counts;
            this.heap = heap;
        }

        @Override
        public void init(ProcessorContext<LinkId, MatchedPairs> context) {
            super.init(context);
            store = Table.of(context, SEGMENTS, heap);
            context.schedule(commit, PunctuationType.WALL_CLOCK_TIME, now -> forward(now));
        }

        @Override
        public void process(Record<String, TraceEvent> record) {
            TraceEvent e = record.value();
            TraceEvent seen = store.get().apply(record.key());
            counts.segmentReads.incrementAndGet();
            TraceEvent other = seen != null && seen.getDirection() != e.getDirection() ? seen : null;
            store.put().accept(record.key(), e);
            counts.segmentWrites.incrementAndGet();
            if (other != null) {
                TraceEvent send = e.getDirection() == Direction.SEND ? e : other;
                TraceEvent recv = send == e ? other : e;
                LinkId link = send.getNode().compareTo(recv.getNode()) < 0 ? new LinkId(send.getNode(),
                        recv.getNode()) : new LinkId(recv.getNode(), send.getNode());
                batches.computeIfAbsent(link, k -> new ArrayList<>()).add(new MatchedPair(send.getNode(),
                        send.getTsNs(), recv.getNode(), recv.getTsNs()));
                counts.pairsMade.incrementAndGet();
            }
        }

        private void forward(long now) {
            batches.forEach((link, pairs) -> {
                context().forward(new Record<>(link, new MatchedPairs(pairs), now));
                counts.pairsForwarded.addAndGet(pairs.size());
            });
            batches.clear();
        }
    }

    /** Per pair a key-value write; per changed link and commit interval one summary. */
    private static final class Links extends ContextualProcessor<LinkId, MatchedPairs, LinkId, LinkSummary> {
        private final Duration commit;
        private final FloorCounts counts;
        /** Per changed link: its latest receive and the pairs since its last summary. */
        private final Map<LinkId, long[]> changed = new LinkedHashMap<>();
        private final boolean heap;
        private Table<LinkId, MatchedPairs> store;

        Links(Duration commit, FloorCounts counts, boolean heap) {
            this.commit = commit;
            this.counts = counts;
            this.heap = heap;
        }

        @Override
        public void init(ProcessorContext<LinkId, LinkSummary> context) {
            super.init(context);
            store = Table.of(context, LINKS, heap);
            context.schedule(commit, PunctuationType.WALL_CLOCK_TIME, this::forward);
        }

        @Override
        public void process(Record<LinkId, MatchedPairs> record) {
            for (MatchedPair p : record.value().getPairs()) {
                store.put().accept(record.key(), new MatchedPairs(List.of(p)));
                counts.pairWrites.incrementAndGet();
                long[] c = changed.computeIfAbsent(record.key(), k -> new long[2]);
                c[0] = Math.max(c[0], p.getRecvNs());
                c[1]++;
            }
            counts.pendingSummaries.set(changed.size());
        }

        private void forward(long now) {
            changed.forEach((link, c) -> {
                context().forward(new Record<>(link, LinkSummary.newBuilder().setA(link.getA()).setB(link.getB())
                        .setQuality(Quality.INCOMPLETE).setLatestNs(c[0]).setPairs(c[1]).setHullPoints(0)
                        .setStalePairs(0).setFailures(0).setEpoch(0).build(), now));
                counts.summariesForwarded.incrementAndGet();
            });
            changed.clear();
            counts.pendingSummaries.set(0);
        }
    }

    /** The one-partition last hop: per summary a key-value write. */
    private static final class Network extends ContextualProcessor<LinkId, LinkSummary, String, SpecificRecord> {
        private final FloorCounts counts;
        private final boolean heap;
        private Table<LinkId, LinkSummary> store;

        Network(FloorCounts counts, boolean heap) {
            this.counts = counts;
            this.heap = heap;
        }

        @Override
        public void init(ProcessorContext<String, SpecificRecord> context) {
            super.init(context);
            store = Table.of(context, NETWORK, heap);
        }

        @Override
        public void process(Record<LinkId, LinkSummary> record) {
            store.put().accept(record.key(), record.value());
            counts.summaryWrites.incrementAndGet();
        }
    }
}
