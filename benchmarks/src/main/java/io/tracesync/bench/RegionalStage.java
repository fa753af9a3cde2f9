package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.network.BackboneProcessor;
import io.tracesync.streams.network.RegionInput;
import io.tracesync.streams.network.RegionLink;
import io.tracesync.streams.network.RegionPartitioner;
import io.tracesync.streams.network.RegionProcessor;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The network work with {@code network.regions}: the regions' tasks ({@link RegionProcessor}, one per partition of
 * {@code network.regions.partitions}) and the backbone's ({@link BackboneProcessor}), each a {@link VirtualTask} on
 * a clock of its own, as on a thread of its own, over in-memory stores of their names. The summaries go to their
 * regions' tasks as the {@code regions} repartition carries them (keyed by region, {@link RegionPartitioner}),
 * those of links between regions to the backbone too; what one task gives another (the ends' factors, the
 * backbone's) arrives a commit interval after the task that gave it got there.
 */
final class RegionalStage extends Stage {

    private static final String HOP = "regions";

    /** A record one task gave another, encoded, and when it may be read. */
    private record Sent(byte[] key, byte[] value, long readyNs) {
    }

    private final RegionPattern regionOf;
    private final long commitNs;
    private final List<VirtualTask<String, RegionInput, String, SpecificRecord>> regions = new ArrayList<>();
    private final VirtualTask<String, NetworkInput, String, NetworkInput> backbone;
    private final List<List<Sent>> toRegions = new ArrayList<>();
    private final List<Sent> toBackbone = new ArrayList<>();
    private final Serializer<String> keys = Serdes.String().serializer();
    private final Serializer<NetworkInput> inputs;
    private final Deserializer<LinkId> linkIds;
    private final Deserializer<LinkSummary> summaries;

    /** {@code settings} with {@code network.regions}; every factor record emitted goes to {@code factors}. */
    RegionalStage(Settings settings, long startNs, Consumer<SyncFactor> factors) {
        Topics topics = new Topics(settings);
        regionOf = settings.regions();
        commitNs = NetworkStage.commitNs(settings);
        inputs = topics.networkInput.serializer();
        linkIds = topics.linkId.deserializer();
        summaries = topics.linkSummary.deserializer();
        int partitions = (int) settings.integer(TracesyncConfig.NETWORK_REGIONS_PARTITIONS_CONFIG);
        for (int p = 0; p < partitions; p++) {
            MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
            KeyValueStore<LinkId, RegionLink> links = WriteBackStoreBuilder.over(Stores.keyValueStoreBuilder(
                    Stores.inMemoryKeyValueStore(TracesyncTopology.REGION_LINK_STORE), topics.linkId,
                    topics.regionLink).withLoggingDisabled(), 10_000).build();
            add(context, links);
            add(context, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TracesyncTopology.REGION_END_STORE),
                    topics.node, Serdes.String()).withLoggingDisabled().build());
            for (String name : List.of(TracesyncTopology.REGION_BACKBONE_STORE, TracesyncTopology.NETWORK_FACTOR_STORE)) {
                add(context, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), topics.node,
                        topics.syncFactor).withLoggingDisabled().build());
            }
            RegionProcessor processor = new RegionProcessor(TracesyncTopology.REGION_LINK_STORE,
                    TracesyncTopology.REGION_END_STORE, TracesyncTopology.REGION_BACKBONE_STORE,
                    TracesyncTopology.NETWORK_FACTOR_STORE, regionOf, settings.networkOptions(),
                    settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG),
                    settings.number(TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG),
                    settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG),
                    settings.number(TracesyncConfig.FACTORS_EMIT_MAX_SHARE_CONFIG),
                    settings.number(TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG), stats);
            toRegions.add(new ArrayList<>());
            regions.add(new VirtualTask<>(context, processor, Serdes.String().deserializer(),
                    topics.regionInput.deserializer(), links::flush, commitNs, startNs, emissions, (r, at) -> {
                        if (r.value() instanceof SyncFactor s) {
                            published(s);
                            factors.accept(s);
                        } else {
                            toBackbone.add(new Sent(keys.serialize(HOP, r.key()),
                                    inputs.serialize(HOP, (NetworkInput) r.value()), at + commitNs));
                        }
                    }));
        }
        MockProcessorContext<String, NetworkInput> context = new MockProcessorContext<>();
        KeyValueStore<LinkId, LinkSummary> links = WriteBackStoreBuilder.over(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(TracesyncTopology.BACKBONE_LINK_STORE), topics.linkId,
                topics.linkSummary).withLoggingDisabled(), 10_000).build();
        add(context, links);
        add(context, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TracesyncTopology.BACKBONE_TIE_STORE),
                topics.node, topics.syncFactor).withLoggingDisabled().build());
        BackboneProcessor processor = new BackboneProcessor(TracesyncTopology.BACKBONE_LINK_STORE,
                TracesyncTopology.BACKBONE_TIE_STORE, regionOf, settings.networkOptions(),
                (int) settings.integer(TracesyncConfig.NETWORK_REGIONS_PER_PAIR_CONFIG),
                settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG),
                settings.number(TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG),
                settings.number(TracesyncConfig.FACTORS_EMIT_MAX_SHARE_CONFIG),
                settings.number(TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG));
        backbone = new VirtualTask<>(context, processor, Serdes.String().deserializer(),
                topics.networkInput.deserializer(), links::flush, commitNs, startNs, new Emissions(new PipelineStats()),
                (r, at) -> {
                    toRegions.get(partition(r.key())).add(new Sent(keys.serialize(HOP, r.key()),
                            inputs.serialize(HOP, r.value()), at + commitNs));
                });
    }

    private static <T> void add(MockProcessorContext<T, ?> context, KeyValueStore<?, ?> store) {
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
    }

    /** The partition of a region's records, as the application's topics put them. */
    private int partition(String region) {
        return RegionPartitioner.partition(region, regions.size());
    }

    @Override
    void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes) {
        List<List<Sent>> now = new ArrayList<>();
        regions.forEach(t -> now.add(new ArrayList<>()));
        List<Sent> crossing = new ArrayList<>();
        for (int i = 0; i < keyBytes.size(); i++) {
            LinkId id = linkIds.deserialize(null, keyBytes.get(i));
            byte[] value = inputs.serialize(HOP, new NetworkInput(summaries.deserialize(null, valueBytes.get(i)), null));
            String ra = regionOf.apply(id.getA());
            String rb = regionOf.apply(id.getB());
            for (String r : ra.equals(rb) ? List.of(ra) : List.of(ra, rb)) {
                now.get(partition(r)).add(new Sent(r.getBytes(StandardCharsets.UTF_8), value, atNs));
            }
            if (!ra.equals(rb)) {
                crossing.add(new Sent((id.getA() + "~" + id.getB()).getBytes(StandardCharsets.UTF_8), value, atNs));
            }
        }
        for (int p = 0; p < regions.size(); p++) {
            List<Sent> in = ready(toRegions.get(p), atNs);
            in.addAll(now.get(p));
            deliver(regions.get(p), atNs, in);
        }
        List<Sent> in = ready(toBackbone, atNs);
        in.addAll(crossing);
        deliver(backbone, atNs, in);
    }

    /** Takes out of {@code queue} what may be read by {@code atNs}. */
    private static List<Sent> ready(List<Sent> queue, long atNs) {
        List<Sent> out = new ArrayList<>();
        queue.removeIf(s -> s.readyNs() <= atNs && out.add(s));
        return out;
    }

    private static void deliver(VirtualTask<String, ?, ?, ?> task, long atNs, List<Sent> in) {
        task.arrive(atNs, in.stream().map(Sent::key).toList(), in.stream().map(Sent::value).toList());
    }

    /** Runs the clocks to {@code ns} a commit interval at a time, the tasks' records to one another delivered. */
    @Override
    void idleUntil(long ns) {
        for (long t = Math.min(clockNs(), ns); t < ns; t += commitNs) {
            arrive(t, List.of(), List.of());
        }
        arrive(ns, List.of(), List.of());
    }

    @Override
    void rebase(long ns) {
        regions.forEach(t -> t.rebase(ns));
        backbone.rebase(ns);
        toRegions.forEach(q -> q.replaceAll(s -> new Sent(s.key(), s.value(), ns)));
        toBackbone.replaceAll(s -> new Sent(s.key(), s.value(), ns));
    }

    @Override
    long clockNs() {
        long max = backbone.clockNs();
        for (VirtualTask<?, ?, ?, ?> t : regions) {
            max = Math.max(max, t.clockNs());
        }
        return max;
    }

    /** Every task's thread time, records and punctuations: the regions' in partition order, then the backbone's. */
    @Override
    List<long[]> taskCpuNs() {
        List<long[]> out = new ArrayList<>();
        regions.forEach(t -> out.add(new long[] {t.processCpuNs(), t.emitCpuNs()}));
        out.add(new long[] {backbone.processCpuNs(), backbone.emitCpuNs()});
        return out;
    }

}
