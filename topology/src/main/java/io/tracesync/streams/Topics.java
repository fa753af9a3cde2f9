package io.tracesync.streams;

import static io.tracesync.streams.config.TracesyncConfig.DLQ_TOPIC_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_HISTORY_RETENTION_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_HISTORY_TOPIC_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.FACTORS_TOPIC_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.LINKS_TOPIC_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.NETWORK_REGIONS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TOPICS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TOPICS_REPLICATION_FACTOR_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_PATTERN_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_TOPIC_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TREE_TOPIC_CONFIG;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.streams.network.RegionInputSerde;
import io.tracesync.streams.network.RegionLinkSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic of the application, declared once with its serdes: the inputs, the outputs for consumers and viewers,
 * and the dead-letter topic. Records are Avro in the Confluent wire format; node keys are plain UTF-8 strings.
 */
public final class Topics {

    /** The input: per-node topics matched by a pattern, or one multiplexed topic. */
    public record Input(Pattern pattern, String topic, String perNodePrefix) {

        /** Whether the application reads this topic. */
        public boolean includes(String name) {
            return pattern != null ? pattern.matcher(name).matches() : topic.equals(name);
        }
    }

    public final Input traces;
    public final String factors;
    /** Every factor record published, deleted by time: the versions a past timestamp converts with. */
    public final String factorHistory;
    public final String tree;
    public final String links;
    public final String deadLetters;
    /**
     * With {@code network.regions}: the backbone's factors of the regions' ends, keyed by region, as many partitions
     * as the regions' repartition topic; null without regions.
     */
    public final String backboneFactors;
    public final SpecificAvroSerde<SegmentKey> segmentKey;
    public final SpecificAvroSerde<TraceEvent> traceEvent;
    public final SpecificAvroSerde<LinkId> linkId;
    public final SpecificAvroSerde<MatchedPairs> matchedPairs;
    public final SpecificAvroSerde<LinkSummary> linkSummary;
    public final SpecificAvroSerde<SyncFactor> syncFactor;
    public final SpecificAvroSerde<TreeSnapshot> treeSnapshot;
    public final SpecificAvroSerde<NetworkInput> networkInput;
    /** The regions' topic's records as region tasks read them: {@link #networkInput}'s bytes. */
    public final RegionInputSerde regionInput;
    /** A region task's stored links: each summary applied as it came, with its forest's weight. */
    public final RegionLinkSerde regionLink;
    public final Serde<String> node = Serdes.String();
    private final int partitions;
    private final int regionPartitions;
    private final short replication;
    private final long historyRetentionMs;

    public Topics(Settings s) {
        String single = s.get(TRACES_TOPIC_CONFIG);
        traces = single.isEmpty()
                ? new Input(Pattern.compile(s.get(TRACES_PATTERN_CONFIG)), null, s.get(TRACES_TOPIC_PREFIX_CONFIG))
                : new Input(null, single, null);
        factors = s.get(FACTORS_TOPIC_CONFIG);
        String history = s.get(FACTORS_HISTORY_TOPIC_CONFIG);
        factorHistory = history.isEmpty() ? historyOf(factors) : history;
        historyRetentionMs = s.duration(FACTORS_HISTORY_RETENTION_CONFIG).toMillis();
        tree = s.get(TREE_TOPIC_CONFIG);
        links = s.get(LINKS_TOPIC_CONFIG);
        deadLetters = s.get(DLQ_TOPIC_CONFIG);
        Map<String, String> config = s.serdeConfig();
        segmentKey = avro(SegmentKey.class, config, true);
        traceEvent = avro(TraceEvent.class, config, false);
        linkId = avro(LinkId.class, config, true);
        matchedPairs = avro(MatchedPairs.class, config, false);
        linkSummary = avro(LinkSummary.class, config, false);
        syncFactor = avro(SyncFactor.class, config, false);
        treeSnapshot = avro(TreeSnapshot.class, config, false);
        networkInput = avro(NetworkInput.class, config, false);
        regionInput = new RegionInputSerde(networkInput);
        regionLink = new RegionLinkSerde(regionInput, linkSummary);
        backboneFactors = s.regions() == null ? null : backboneFactorsOf(s.get("application.id"));
        regionPartitions = (int) s.integer(NETWORK_REGIONS_PARTITIONS_CONFIG);
        partitions = (int) s.integer(TOPICS_PARTITIONS_CONFIG);
        replication = (short) s.integer(TOPICS_REPLICATION_FACTOR_CONFIG);
        refuseOwnTopicsAsInput(s.get("application.id"));
    }

    /**
     * A traces pattern that matches one of the application's own topics would have it read its output (or its
     * repartition topics) as trace events: refused at once, naming the topic.
     */
    private void refuseOwnTopicsAsInput(String applicationId) {
        if (traces.pattern() == null) {
            return;
        }
        List<String> owns = new ArrayList<>(List.of(factors, factorHistory, tree, links, deadLetters,
                InternalTopics.repartition(applicationId, InternalTopics.SEGMENTS)));
        if (backboneFactors != null) {
            owns.add(backboneFactors);
        }
        for (String own : owns) {
            if (traces.includes(own)) {
                throw new ConfigException(TRACES_PATTERN_CONFIG, traces.pattern().pattern(), "it matches the "
                        + "application's own topic " + own + ", which it would read as traces");
            }
        }
    }

    /** The topic of the backbone's factors of an application with regions. */
    public static String backboneFactorsOf(String applicationId) {
        return applicationId + "-backbone-factors";
    }

    /** The history topic's name by default: the factors topic's followed by {@code .history}. */
    public static String historyOf(String factorsTopic) {
        return factorsTopic + ".history";
    }

    private static <T extends SpecificRecord> SpecificAvroSerde<T> avro(Class<T> type, Map<String, String> config,
            boolean isKey) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
        serde.configure(config, isKey);
        return serde;
    }

    /**
     * The largest forest snapshot ({@code sync.tree} and the network-tree changelog) and so the largest record the
     * application writes: about 19 bytes a node, 1.1 MB at 60,000 nodes, past Kafka's default 1 MiB.
     */
    public static final int MAX_RECORD_BYTES = 16 << 20;
    /** The settings of the topics that hold forest snapshots: latest values, records up to MAX_RECORD_BYTES. */
    public static final Map<String, String> SNAPSHOT_TOPIC_CONFIGS = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES));

    /**
     * The output topics the application creates when missing: latest-value topics compacted, the factor history
     * deleted after its retention.
     */
    public List<NewTopic> outputs() {
        List<NewTopic> all = new ArrayList<>(List.of(compacted(factors, partitions),
                new NewTopic(factorHistory, partitions, replication)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.RETENTION_MS_CONFIG, Long.toString(historyRetentionMs))),
                new NewTopic(tree, 1, replication).configs(SNAPSHOT_TOPIC_CONFIGS), compacted(links, partitions),
                new NewTopic(deadLetters, partitions, replication)));
        if (backboneFactors != null) {
            // read by the regions' tasks beside their repartition topic: as many partitions, the same keys
            all.add(new NewTopic(backboneFactors, regionPartitions, replication)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(BACKBONE_FACTORS_RETENTION_MS))));
        }
        return all;
    }

    /** The backbone's factors are read within seconds; a day covers any outage the regions' stores outlast. */
    private static final long BACKBONE_FACTORS_RETENTION_MS = 24L * 3600 * 1000;

    private NewTopic compacted(String name, int n) {
        return new NewTopic(name, n, replication)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    }
}
