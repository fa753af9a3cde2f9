package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkStateCodec;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.link.LinkProcessor;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The application's link step, {@link LinkProcessor} unchanged with the options and minimum change of
 * {@code settings}, in Kafka's {@link MockProcessorContext} over an in-memory store of its name behind the same
 * write-back buffer; no changelog.
 */
final class LinkStep {

    private static final Serde<ConvexHullLink> HULLS = Serdes.serdeFrom(
            (topic, link) -> link == null ? null : LinkStateCodec.encode(link),
            (topic, bytes) -> bytes == null ? null : LinkStateCodec.decode(bytes));

    final PipelineStats stats = new PipelineStats();
    private final MockProcessorContext<LinkId, LinkSummary> context = new MockProcessorContext<>();
    private final KeyValueStore<LinkId, ConvexHullLink> store;
    private final LinkProcessor processor;

    /** {@code settings} needs a {@code schema.registry.url}, {@code mock://…} will do: it serializes the keys. */
    LinkStep(Settings settings) {
        String name = TracesyncTopology.LINK_STORE;
        store = WriteBackStoreBuilder.over(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                new Topics(settings).linkId, HULLS).withLoggingDisabled(), 10_000).build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        processor = new LinkProcessor(name, settings.linkOptions(),
                settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG), stats);
        processor.init(context);
    }

    /** One link's batch, as the {@code pairs} hop delivers it; returns the summaries it forwarded. */
    List<LinkSummary> process(LinkId link, List<MatchedPair> pairs, long timestampMs) {
        context.resetForwards();
        processor.process(new Record<>(link, new MatchedPairs(pairs), timestampMs));
        return context.forwarded().stream().map(f -> (LinkSummary) f.record().value()).toList();
    }

    /** The commit: each link changed since the last one is written to the store once. */
    void commit() {
        store.flush();
    }
}
