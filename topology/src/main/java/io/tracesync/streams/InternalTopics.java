package io.tracesync.streams;

import io.tracesync.streams.config.TracesyncConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The names of the application's internal topics, as Kafka Streams derives them from the application id and the
 * names {@link TracesyncTopology} gives its repartitions and stores: the one place tools, benchmarks and tests take
 * them from.
 */
public final class InternalTopics {

    /** The trace events repartitioned by segment (step 3 of docs/STREAMS.md). */
    public static final String SEGMENTS = "segments";
    /** The matched pairs repartitioned by link. */
    public static final String PAIRS = "pairs";
    /** The link summaries on their way to the network task's one partition. */
    public static final String NETWORK = "network";
    /** The link summaries by region, with {@code network.regions}. */
    public static final String REGIONS = "regions";
    /** The links between regions on their way to the backbone task. */
    public static final String BACKBONE_LINKS = "backbone-links";
    /** The regions' factors of their ends on their way to the backbone task. */
    public static final String BACKBONE_TIES = "backbone-ties";

    private InternalTopics() {
    }

    /**
     * The internal topics an application of this id may have, whatever its shortcuts: every store's changelog, every
     * repartition topic, and the regions' topic of the backbone's factors.
     */
    public static List<String> all(String applicationId) {
        List<String> names = new ArrayList<>();
        TracesyncTopology.STORES.forEach(s -> names.add(changelog(applicationId, s)));
        List.of(SEGMENTS, PAIRS, NETWORK, REGIONS, BACKBONE_LINKS, BACKBONE_TIES)
                .forEach(r -> names.add(repartition(applicationId, r)));
        names.add(Topics.backboneFactorsOf(applicationId));
        return names;
    }

    /** The topic of repartition {@code name} in application {@code applicationId}. */
    public static String repartition(String applicationId, String name) {
        return applicationId + "-" + name + "-repartition";
    }

    /** The changelog topic of store {@code store} in application {@code applicationId}. */
    public static String changelog(String applicationId, String store) {
        return applicationId + "-" + store + "-changelog";
    }

    /**
     * The topic whose one partition the network task reads (without regions): the {@code network} repartition, or
     * with {@code links.with.network} the {@code pairs} repartition, which then has one partition.
     */
    public static String networkTaskInput(Settings settings) {
        return repartition(settings.get("application.id"),
                settings.bool(TracesyncConfig.LINKS_WITH_NETWORK_CONFIG) ? PAIRS : NETWORK);
    }
}
