package io.tracesync.streams;

import static io.tracesync.streams.InternalTopics.BACKBONE_LINKS;
import static io.tracesync.streams.InternalTopics.BACKBONE_TIES;
import static io.tracesync.streams.InternalTopics.NETWORK;
import static io.tracesync.streams.InternalTopics.PAIRS;
import static io.tracesync.streams.InternalTopics.REGIONS;
import static io.tracesync.streams.InternalTopics.SEGMENTS;
import static io.tracesync.streams.InternalTopics.changelog;
import static io.tracesync.streams.InternalTopics.repartition;
import static io.tracesync.streams.config.TracesyncConfig.CHECK_MAX_CLOCK_JUMP_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_EMIT_MAX_SHARE_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_HISTORY_RETENTION_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_HISTORY_SPACING_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_HISTORY_TOLERANCE_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.LINKS_MIN_CHANGE_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.LINKS_WITH_NETWORK_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.MATCHER_MAX_PENDING_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.MATCHER_ROTATION_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.NETWORK_REGIONS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.NETWORK_REGIONS_PER_PAIR_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.PAIRS_BATCHED_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TOPICS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.streams.link.LinkProcessor;
import io.tracesync.streams.matcher.NodeClocks;
import io.tracesync.streams.matcher.SegmentKeying;
import io.tracesync.streams.matcher.SegmentMatcher;
import io.tracesync.streams.matcher.TraceEventCheck;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.streams.network.HistoryProcessor;
import io.tracesync.streams.network.BackboneProcessor;
import io.tracesync.streams.network.NetworkProcessor;
import io.tracesync.streams.network.RegionInput;
import io.tracesync.streams.network.RegionPartitioner;
import io.tracesync.streams.network.RegionProcessor;
import io.tracesync.streams.state.BeforeCommit;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The streaming application: trace events → matched pairs → per-link hulls → the network → factors.
 * <pre>
 * traces.* ─check─▶ [segments] ─match─▶ [pairs] ─links─▶ sync.links
 *                                                   └──▶ [network, 1 partition] ─network─▶ sync.factors, sync.tree
 * </pre>
 * With {@code traces.partitioned.by.segment} the inputs are already where the matcher needs them
 * ({@link io.tracesync.streams.matcher.SegmentPartitioning}) and the {@code segments} repartition is left out; with
 * {@code links.with.network} the pairs go to the network's one partition and the link step feeds the network step
 * in the same task, without the {@code network} repartition.
 * Every repartition topic, store and processor is named, so the internal topics keep their names across versions.
 * Bad records go to the dead-letter topic through the configured exception handlers.
 */
public final class TracesyncTopology {

    public static final String CLOCK_STORE = "check-clocks";
    public static final String MATCHER_STORE = "matcher-generations";
    public static final String LINK_STORE = "link-hulls";
    public static final String NETWORK_LINK_STORE = "network-links";
    public static final String NETWORK_FACTOR_STORE = "network-factors";
    public static final String NETWORK_TREE_STORE = "network-tree";
    public static final String NETWORK_FACTOR_HISTORY_STORE = "network-factor-history";
    public static final String REGION_LINK_STORE = "region-links";
    public static final String REGION_END_STORE = "region-ends";
    public static final String REGION_BACKBONE_STORE = "region-backbone-factors";
    public static final String BACKBONE_LINK_STORE = "backbone-links";
    public static final String BACKBONE_TIE_STORE = "backbone-ties";
    /** The matcher's before-commit hook ({@link BeforeCommit}): holds nothing, has no changelog. */
    static final String PAIR_BATCHES = "pair-batches";
    /** Every store with a changelog. */
    static final List<String> STORES = List.of(CLOCK_STORE, MATCHER_STORE, LINK_STORE, NETWORK_LINK_STORE,
            NETWORK_FACTOR_STORE, NETWORK_TREE_STORE, NETWORK_FACTOR_HISTORY_STORE, REGION_LINK_STORE,
            REGION_END_STORE, REGION_BACKBONE_STORE, BACKBONE_LINK_STORE, BACKBONE_TIE_STORE);

    private TracesyncTopology() {
    }

    /**
     * The Avro serdes of the records this application writes, by topic: its outputs, its repartition topics and its
     * stores' changelogs, keys and values alike (a store's serializer is given its changelog's name).
     */
    public static Map<String, List<SpecificAvroSerde<?>>> avroWrites(Settings settings, Topics topics) {
        String id = settings.get(StreamsConfig.APPLICATION_ID_CONFIG);
        Map<String, List<SpecificAvroSerde<?>>> writes = new LinkedHashMap<>();
        if (!settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG)) {
            writes.put(repartition(id, SEGMENTS), List.of(topics.traceEvent));
        }
        writes.put(repartition(id, PAIRS), List.of(topics.linkId, topics.matchedPairs));
        writes.put(changelog(id, LINK_STORE), List.of(topics.linkId));
        writes.put(topics.links, List.of(topics.linkId, topics.linkSummary));
        if (settings.regions() != null) {
            writes.put(repartition(id, REGIONS), List.of(topics.networkInput));
            writes.put(repartition(id, BACKBONE_LINKS), List.of(topics.networkInput));
            writes.put(repartition(id, BACKBONE_TIES), List.of(topics.networkInput));
            writes.put(topics.backboneFactors, List.of(topics.networkInput));
            writes.put(changelog(id, REGION_LINK_STORE), List.of(topics.linkId, topics.networkInput));
            writes.put(changelog(id, REGION_BACKBONE_STORE), List.of(topics.syncFactor));
            writes.put(changelog(id, BACKBONE_LINK_STORE), List.of(topics.linkId, topics.linkSummary));
            writes.put(changelog(id, BACKBONE_TIE_STORE), List.of(topics.syncFactor));
        } else {
            if (!settings.bool(LINKS_WITH_NETWORK_CONFIG)) {
                writes.put(repartition(id, NETWORK), List.of(topics.linkId, topics.linkSummary));
            }
            writes.put(changelog(id, NETWORK_LINK_STORE), List.of(topics.linkId, topics.linkSummary));
            writes.put(changelog(id, NETWORK_TREE_STORE), List.of(topics.treeSnapshot));
        }
        writes.put(changelog(id, NETWORK_FACTOR_STORE), List.of(topics.syncFactor));
        writes.put(changelog(id, NETWORK_FACTOR_HISTORY_STORE), List.of(topics.syncFactor));
        writes.put(topics.factors, List.of(topics.syncFactor));
        writes.put(topics.factorHistory, List.of(topics.syncFactor));
        writes.put(topics.tree, List.of(topics.treeSnapshot));
        return writes;
    }

    /**
     * Whether the matcher forwards each link's pairs in one record per commit: {@code pairs.batched}, except in the
     * deterministic mode, where each pair goes out at once (how pairs of different links interleave would
     * otherwise follow the commits' wall-clock timing).
     */
    public static boolean batchesPairs(Settings settings) {
        return settings.bool(PAIRS_BATCHED_CONFIG) && !settings.duration(FACTORS_EMIT_INTERVAL_CONFIG).isZero();
    }

    public static Topology build(Settings settings, Topics topics, PipelineStats stats) {
        StreamsBuilder b = builder(settings);
        KStream<String, TraceEvent> keyed = check(b, source(b, topics), settings, topics);
        if (!settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG)) {
            keyed = keyed.repartition(Repartitioned.with(Serdes.String(), topics.traceEvent).withName(SEGMENTS));
        }
        boolean withNetwork = settings.bool(LINKS_WITH_NETWORK_CONFIG);
        Repartitioned<LinkId, MatchedPairs> byLink = Repartitioned.with(topics.linkId, topics.matchedPairs)
                .withName(PAIRS);
        KStream<LinkId, LinkSummary> summaries = links(b, match(b, keyed, settings, stats)
                .repartition(withNetwork ? byLink.withNumberOfPartitions(1) : byLink), settings, stats, topics);
        if (settings.regions() != null) {
            writeOutputs(regions(b, summaries, settings, stats, topics), settings, topics, stats);
            return b.build(settings.streamsProperties());
        }
        KStream<LinkId, LinkSummary> toNetwork = withNetwork ? summaries : summaries
                .repartition(Repartitioned.with(topics.linkId, topics.linkSummary).withName(NETWORK)
                        .withNumberOfPartitions(1));
        writeOutputs(network(b, toNetwork, settings, stats, topics), settings, topics, stats);
        return b.build(settings.streamsProperties());
    }

    /**
     * Step 4 with {@code network.regions} (docs/NETWORK-CORE.md, Regions): each summary to its link's region —
     * a link between regions to both ends' regions, marking them as ends, and to the backbone —, the regions in
     * {@code network.regions.partitions} tasks ({@link RegionProcessor}), the backbone in one
     * ({@link BackboneProcessor}); the regions' ends' factors to the backbone, the backbone's back to the regions
     * through the topic {@link Topics#backboneFactors}, keyed and partitioned by region as the regions' repartition
     * is ({@link RegionPartitioner}).
     */
    public static KStream<String, SpecificRecord> regions(StreamsBuilder b, KStream<LinkId, LinkSummary> summaries,
            Settings settings, PipelineStats stats, Topics topics) {
        RegionPattern regions = settings.regions();
        Function<String, String> regionOf = regions.memoized();
        int partitions = (int) settings.integer(NETWORK_REGIONS_PARTITIONS_CONFIG);
        KStream<String, RegionInput> toRegions = summaries.flatMap((k, s) -> {
            String ra = regionOf.apply(k.getA());
            String rb = regionOf.apply(k.getB());
            RegionInput in = RegionInput.of(new NetworkInput(s, null));
            return ra.equals(rb) ? List.of(KeyValue.pair(ra, in))
                    : List.of(KeyValue.pair(ra, in), KeyValue.pair(rb, in));
        }, Named.as("by-region")).repartition(Repartitioned.with(topics.node, topics.regionInput).withName(REGIONS)
                .withNumberOfPartitions(partitions).withStreamPartitioner(new RegionPartitioner<>()));
        KStream<String, RegionInput> backboneFactors = b.stream(topics.backboneFactors,
                Consumed.with(topics.node, topics.regionInput).withName("backbone-factors"));
        b.addStateStore(WriteBackStoreBuilder.persistent(REGION_LINK_STORE, topics.linkId, topics.regionLink));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(REGION_END_STORE), topics.node,
                Serdes.String()));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(REGION_BACKBONE_STORE),
                topics.node, topics.syncFactor));
        addEmittedFactorStore(b, topics);
        KStream<String, SpecificRecord> answers = toRegions.merge(backboneFactors, Named.as("region-inputs"))
                .process(() -> new RegionProcessor(REGION_LINK_STORE, REGION_END_STORE, REGION_BACKBONE_STORE,
                        NETWORK_FACTOR_STORE, regions, settings.networkOptions(),
                        settings.duration(FACTORS_EMIT_INTERVAL_CONFIG), settings.number(FACTORS_MIN_CHANGE_CONFIG),
                        settings.number(LINKS_MIN_CHANGE_CONFIG), settings.number(FACTORS_EMIT_MAX_SHARE_CONFIG),
                        settings.number(LINK_MAX_DRIFT_PPM_CONFIG), stats), Named.as("region"),
                        REGION_LINK_STORE, REGION_END_STORE, REGION_BACKBONE_STORE, NETWORK_FACTOR_STORE);
        KStream<String, NetworkInput> crossing = summaries
                .filter((k, s) -> !regionOf.apply(k.getA()).equals(regionOf.apply(k.getB())), Named.as("crossing"))
                .map((k, s) -> KeyValue.pair(k.getA() + "~" + k.getB(), new NetworkInput(s, null)),
                        Named.as("crossing-input"))
                .repartition(Repartitioned.with(topics.node, topics.networkInput).withName(BACKBONE_LINKS)
                        .withNumberOfPartitions(1));
        KStream<String, NetworkInput> ties = answers
                .filter((k, v) -> v instanceof NetworkInput, Named.as("ties"))
                .mapValues(v -> (NetworkInput) v, Named.as("as-tie"))
                .repartition(Repartitioned.with(topics.node, topics.networkInput).withName(BACKBONE_TIES)
                        .withNumberOfPartitions(1));
        b.addStateStore(WriteBackStoreBuilder.persistent(BACKBONE_LINK_STORE, topics.linkId, topics.linkSummary));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(BACKBONE_TIE_STORE),
                topics.node, topics.syncFactor));
        crossing.merge(ties, Named.as("backbone-inputs"))
                .process(() -> new BackboneProcessor(BACKBONE_LINK_STORE, BACKBONE_TIE_STORE, regions,
                        settings.networkOptions(), (int) settings.integer(NETWORK_REGIONS_PER_PAIR_CONFIG),
                        settings.duration(FACTORS_EMIT_INTERVAL_CONFIG), settings.number(FACTORS_MIN_CHANGE_CONFIG),
                        settings.number(FACTORS_EMIT_MAX_SHARE_CONFIG), settings.number(LINK_MAX_DRIFT_PPM_CONFIG)),
                        Named.as("backbone"),
                        BACKBONE_LINK_STORE, BACKBONE_TIE_STORE)
                .to(topics.backboneFactors, Produced.with(topics.node, topics.networkInput)
                        .withStreamPartitioner(new RegionPartitioner<>()).withName("to-backbone-factors"));
        return answers.filter((k, v) -> !(v instanceof NetworkInput), Named.as("region-factors"));
    }

    /** A builder with the application's topology settings. */
    public static StreamsBuilder builder(Settings settings) {
        return new StreamsBuilder(new TopologyConfig(new StreamsConfig(settings.streamsProperties())));
    }

    /** The trace topics, by name or by pattern. */
    public static KStream<SegmentKey, TraceEvent> source(StreamsBuilder b, Topics topics) {
        Consumed<SegmentKey, TraceEvent> consumed = Consumed.with(topics.segmentKey, topics.traceEvent)
                .withName("traces");
        return topics.traces.pattern() != null ? b.stream(topics.traces.pattern(), consumed)
                : b.stream(topics.traces.topic(), consumed);
    }

    /**
     * Step 1, check: each event checked against its node's clock ({@link TraceEventCheck}, {@link NodeClocks}) and
     * keyed by its segment, which with {@code traces.partitioned.by.segment} also says its partition.
     */
    public static KStream<String, TraceEvent> check(StreamsBuilder b, KStream<SegmentKey, TraceEvent> events,
            Settings settings, Topics topics) {
        b.addStateStore(NodeClocks.store(CLOCK_STORE));
        TraceEventCheck check = new TraceEventCheck(topics.traces.perNodePrefix());
        Duration maxClockJump = settings.duration(CHECK_MAX_CLOCK_JUMP_CONFIG);
        int partitions = settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG)
                ? (int) settings.integer(TOPICS_PARTITIONS_CONFIG) : 0;
        return events.process(() -> new SegmentKeying(check, CLOCK_STORE, maxClockJump, partitions),
                Named.as("check"), CLOCK_STORE);
    }

    /** Step 2, match: each segment's send and receive paired ({@link SegmentMatcher}), keyed by link. */
    public static KStream<LinkId, MatchedPairs> match(StreamsBuilder b, KStream<String, TraceEvent> keyed,
            Settings settings, PipelineStats stats) {
        b.addStateStore(SegmentMatcher.store(MATCHER_STORE, settings.duration(MATCHER_ROTATION_CONFIG)));
        boolean batching = batchesPairs(settings);
        String[] stores = batching ? new String[] {MATCHER_STORE, PAIR_BATCHES} : new String[] {MATCHER_STORE};
        if (batching) {
            b.addStateStore(BeforeCommit.builder(PAIR_BATCHES));
        }
        return keyed.process(() -> new SegmentMatcher(MATCHER_STORE, settings.duration(MATCHER_ROTATION_CONFIG),
                settings.integer(MATCHER_MAX_PENDING_CONFIG), stats, batching ? PAIR_BATCHES : null),
                Named.as("match"), stores);
    }

    /** Step 3, links: each link's hulls ({@link LinkProcessor}); its summaries also go to {@code sync.links}. */
    public static KStream<LinkId, LinkSummary> links(StreamsBuilder b, KStream<LinkId, MatchedPairs> pairs,
            Settings settings, PipelineStats stats, Topics topics) {
        b.addStateStore(LinkProcessor.store(LINK_STORE, topics.linkId));
        KStream<LinkId, LinkSummary> summaries = pairs.process(() -> new LinkProcessor(LINK_STORE,
                settings.linkOptions(), settings.number(LINKS_MIN_CHANGE_CONFIG), stats), Named.as("links"),
                LINK_STORE);
        summaries.to(topics.links, Produced.with(topics.linkId, topics.linkSummary).withName("to-links"));
        return summaries;
    }

    /** Step 4, network: the spanning forest, reference nodes and factors ({@link NetworkProcessor}), one task. */
    public static KStream<String, SpecificRecord> network(StreamsBuilder b, KStream<LinkId, LinkSummary> summaries,
            Settings settings, PipelineStats stats, Topics topics) {
        // written on every link summary: behind a write-back buffer like the matcher's and the links' stores
        b.addStateStore(WriteBackStoreBuilder.persistent(NETWORK_LINK_STORE, topics.linkId, topics.linkSummary));
        addEmittedFactorStore(b, topics);
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(NETWORK_TREE_STORE),
                topics.node, topics.treeSnapshot).withLoggingEnabled(Topics.SNAPSHOT_TOPIC_CONFIGS));
        return summaries.process(() -> new NetworkProcessor(NETWORK_LINK_STORE, NETWORK_FACTOR_STORE,
                NETWORK_TREE_STORE, settings.networkOptions(), settings.duration(FACTORS_EMIT_INTERVAL_CONFIG),
                settings.number(FACTORS_MIN_CHANGE_CONFIG), settings.number(LINKS_MIN_CHANGE_CONFIG),
                settings.number(FACTORS_EMIT_MAX_SHARE_CONFIG), settings.number(LINK_MAX_DRIFT_PPM_CONFIG), stats),
                Named.as("network"),
                NETWORK_LINK_STORE, NETWORK_FACTOR_STORE, NETWORK_TREE_STORE);
    }

    /**
     * The store of the factors the network step emitted, each node's last ({@value #NETWORK_FACTOR_STORE}): written
     * by the network or region step, read by the history step of {@link #writeOutputs} when its task starts.
     */
    public static void addEmittedFactorStore(StreamsBuilder b, Topics topics) {
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(NETWORK_FACTOR_STORE),
                topics.node, topics.syncFactor));
    }

    /**
     * The network step's outputs to their sinks: factors to {@code sync.factors} and, those the history keeps
     * ({@link HistoryProcessor}, store {@value #NETWORK_FACTOR_HISTORY_STORE}; it reads the store of
     * {@link #addEmittedFactorStore}, which the builder must have), to the factor history; snapshots to
     * {@code sync.tree}.
     */
    public static void writeOutputs(KStream<String, SpecificRecord> outputs, Settings settings, Topics topics,
            PipelineStats stats) {
        HistoryGate gate = new HistoryGate(settings.duration(FACTORS_HISTORY_SPACING_CONFIG).toNanos(),
                settings.duration(FACTORS_HISTORY_TOLERANCE_CONFIG).toNanos());
        Duration retention = settings.duration(FACTORS_HISTORY_RETENTION_CONFIG);
        outputs.split(Named.as("output-"))
                .branch((k, v) -> v instanceof SyncFactor, Branched.withConsumer(s -> {
                    KStream<String, SyncFactor> factors = s.mapValues(v -> (SyncFactor) v, Named.as("as-factor"));
                    factors.to(topics.factors, Produced.with(topics.node, topics.syncFactor).withName("to-factors"));
                    factors.process(HistoryProcessor.supplier(NETWORK_FACTOR_HISTORY_STORE, NETWORK_FACTOR_STORE,
                            topics.syncFactor, gate, retention, stats), Named.as("history"), NETWORK_FACTOR_STORE)
                            .to(topics.factorHistory, Produced.with(topics.node, topics.syncFactor)
                                    .withName("to-factor-history"));
                }, "factors"))
                .branch((k, v) -> v instanceof TreeSnapshot, Branched.withConsumer(s -> s
                        .mapValues(v -> (TreeSnapshot) v, Named.as("as-tree"))
                        .to(topics.tree, Produced.with(topics.node, topics.treeSnapshot).withName("to-tree")),
                        "tree"))
                .noDefaultBranch();
    }
}
