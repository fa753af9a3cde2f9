package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.network.NetworkProcessor;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The application's network step, {@link NetworkProcessor} unchanged with the settings' emission interval and
 * options, over in-memory stores of its names (the links' behind the same write-back buffer; no changelogs), as a
 * {@link VirtualTask}: on a virtual wall clock that moves on by the thread CPU the task took, so a task that cannot
 * keep up falls behind the link time (its backlog) as a real one would.
 */
final class NetworkStage extends Stage {

    private final KeyValueStore<LinkId, LinkSummary> links;
    private final VirtualTask<LinkId, LinkSummary, String, SpecificRecord> task;

    /**
     * {@code settings} needs a {@code schema.registry.url}, {@code mock://…} will do; starts at {@code startNs};
     * every factor record emitted goes to {@code factors} (untimed).
     */
    NetworkStage(Settings settings, long startNs, Consumer<SyncFactor> factors) {
        Topics topics = new Topics(settings);
        MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
        links = WriteBackStoreBuilder.over(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                TracesyncTopology.NETWORK_LINK_STORE), topics.linkId, topics.linkSummary).withLoggingDisabled(),
                10_000).build();
        KeyValueStore<String, SyncFactor> emitted = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                TracesyncTopology.NETWORK_FACTOR_STORE), topics.node, topics.syncFactor).withLoggingDisabled().build();
        var trees = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TracesyncTopology.NETWORK_TREE_STORE),
                topics.node, topics.treeSnapshot).withLoggingDisabled().build();
        for (var store : List.of(links, emitted, trees)) {
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
        }
        NetworkProcessor processor = new NetworkProcessor(TracesyncTopology.NETWORK_LINK_STORE,
                TracesyncTopology.NETWORK_FACTOR_STORE, TracesyncTopology.NETWORK_TREE_STORE, settings.networkOptions(),
                settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG),
                settings.number(TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG),
                settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG),
                settings.number(TracesyncConfig.FACTORS_EMIT_MAX_SHARE_CONFIG),
                settings.number(TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG), stats);
        task = new VirtualTask<>(context, processor, topics.linkId.deserializer(), topics.linkSummary.deserializer(),
                links::flush, commitNs(settings), startNs, emissions, (r, at) -> {
                    if (r.value() instanceof SyncFactor s) {
                        published(s);
                        factors.accept(s);
                    }
                });
    }

    /** The commit interval of the settings, in ns. */
    static long commitNs(Settings settings) {
        return new StreamsConfig(settings.streamsProperties()).getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)
                * 1_000_000;
    }

    @Override
    void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes) {
        task.arrive(atNs, keyBytes, valueBytes);
    }

    @Override
    void idleUntil(long ns) {
        task.idleUntil(ns);
    }

    @Override
    void rebase(long ns) {
        task.rebase(ns);
    }

    @Override
    long clockNs() {
        return task.clockNs();
    }

    @Override
    List<long[]> taskCpuNs() {
        return List.of(new long[] {task.processCpuNs(), task.emitCpuNs()});
    }
}
