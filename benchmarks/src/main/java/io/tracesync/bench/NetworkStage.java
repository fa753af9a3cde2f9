package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.network.NetworkProcessor;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The application's network step, {@link NetworkProcessor} unchanged with the settings' emission interval and
 * options, in Kafka's {@link MockProcessorContext} over in-memory stores of its names (the links' behind the same
 * write-back buffer; no changelogs), run on a virtual wall clock: records arrive at their link time and are decoded
 * and processed in polls of {@link #POLL} records; the task's clock moves on by the thread CPU each poll, commit and
 * punctuation took, so a task that cannot keep up falls behind the link time (its backlog) as a real one would. The
 * wall-clock punctuations (the emissions) fire when due on that clock, between polls, as Kafka Streams fires them.
 */
final class NetworkStage {

    /** Records per poll: the consumer's default {@code max.poll.records}. */
    static final int POLL = 500;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
    private final KeyValueStore<LinkId, LinkSummary> links;
    private final NetworkProcessor processor;
    private final Deserializer<LinkId> keys;
    private final Deserializer<LinkSummary> values;
    private final long commitNs;
    /** Each wall-clock punctuation and when it is next due, in the order they were scheduled. */
    private final Map<CapturedPunctuator, Long> due = new LinkedHashMap<>();
    /** Per node that was published: whether its latest factor is bounded. */
    private final Map<String, Boolean> published = new HashMap<>();
    final PipelineStats stats = new PipelineStats();
    private long clockNs;
    private long nextCommitNs;
    private long processCpuNs;
    private long emitCpuNs;
    private long emissions;
    /** The emissions' factor lags (how long the oldest summary each reflects had waited), summed, and the largest. */
    private long lagMs;
    private long maxLagMs;

    private final Consumer<SyncFactor> factors;

    /**
     * {@code settings} needs a {@code schema.registry.url}, {@code mock://…} will do; starts at {@code startNs};
     * every factor record emitted goes to {@code factors} (untimed).
     */
    NetworkStage(Settings settings, long startNs, Consumer<SyncFactor> factors) {
        this.factors = factors;
        Topics topics = new Topics(settings);
        keys = topics.linkId.deserializer();
        values = topics.linkSummary.deserializer();
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
        commitNs = new StreamsConfig(settings.streamsProperties())
                .getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG) * 1_000_000;
        processor = new NetworkProcessor(TracesyncTopology.NETWORK_LINK_STORE, TracesyncTopology.NETWORK_FACTOR_STORE,
                TracesyncTopology.NETWORK_TREE_STORE, settings.networkOptions(),
                settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG),
                settings.number(TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG),
                settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG),
                settings.number(TracesyncConfig.FACTORS_EMIT_MAX_SHARE_CONFIG), stats);
        clockNs = startNs;
        nextCommitNs = startNs + commitNs;
        processor.init(context);
        schedule();
    }

    /**
     * The records of one moment of link time ({@code atNs}), encoded as the {@code network} hop carries them:
     * first the punctuations that fell due while the task waited for them, then the records in polls.
     */
    void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes) {
        idleUntil(atNs);
        for (int from = 0; from < keyBytes.size(); from += POLL) {
            long cpu = threads.getCurrentThreadCpuTime();
            int to = Math.min(keyBytes.size(), from + POLL);
            for (int i = from; i < to; i++) {
                LinkId key = keys.deserialize(null, keyBytes.get(i));
                processor.process(new Record<>(key, values.deserialize(null, valueBytes.get(i)), atNs / 1_000_000));
            }
            if (clockNs >= nextCommitNs) {
                links.flush();
                nextCommitNs = clockNs + commitNs;
            }
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            processCpuNs += cpu;
            clockNs += cpu;
            punctuate();
        }
    }

    /** Lets the task's clock run to {@code ns} (if it is not past it already), firing what falls due. */
    void idleUntil(long ns) {
        while (true) {
            long next = nextDue();
            if (next > ns || next == Long.MAX_VALUE) {
                break;
            }
            clockNs = Math.max(clockNs, next);
            punctuate();
        }
        clockNs = Math.max(clockNs, ns);
    }

    /** Sets the task's clock to {@code ns}, every punctuation as far ahead of it as it was. */
    void rebase(long ns) {
        due.replaceAll((p, at) -> ns + Math.max(0, at - clockNs));
        nextCommitNs = ns + Math.max(0, nextCommitNs - clockNs);
        clockNs = ns;
    }

    private long nextDue() {
        long next = Long.MAX_VALUE;
        for (Map.Entry<CapturedPunctuator, Long> e : due.entrySet()) {
            if (!e.getKey().cancelled()) {
                next = Math.min(next, e.getValue());
            }
        }
        return next;
    }

    /** Fires every punctuation due on the task's clock, which moves on by the CPU each took. */
    private void punctuate() {
        for (CapturedPunctuator p : new ArrayList<>(due.keySet())) {
            long at = due.get(p);
            if (p.cancelled() || at > clockNs) {
                continue;
            }
            long interval = p.getInterval().toNanos();
            long updates = stats.networkUpdates.get();
            long cpu = threads.getCurrentThreadCpuTime();
            p.getPunctuator().punctuate(clockNs / 1_000_000);
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            // Kafka Streams skips the punctuations a late task missed: the next is an interval after this one
            due.put(p, at + interval > clockNs ? at + interval : clockNs + interval);
            if (stats.networkUpdates.get() > updates) {
                emissions++;
                lagMs += stats.factorLagMs.get();
                maxLagMs = Math.max(maxLagMs, stats.factorLagMs.get());
            }
            emitCpuNs += cpu;
            clockNs += cpu;
            readFactors();
            schedule();
        }
    }

    private void schedule() {
        for (CapturedPunctuator p : context.scheduledPunctuators()) {
            if (p.getType() == PunctuationType.WALL_CLOCK_TIME && !due.containsKey(p)) {
                due.put(p, clockNs + p.getInterval().toNanos());
            }
        }
    }

    private void readFactors() {
        for (var f : context.forwarded()) {
            if (f.record().value() instanceof SyncFactor s) {
                published.put(s.getNode(), s.getUpPs() != null && s.getDownPs() != null);
                factors.accept(s);
            }
        }
        context.resetForwards();
    }

    /** The task's clock: link time, or later while it is behind. */
    long clockNs() {
        return clockNs;
    }

    long processCpuNs() {
        return processCpuNs;
    }

    long emitCpuNs() {
        return emitCpuNs;
    }

    /** Emissions that applied summaries. */
    long emissions() {
        return emissions;
    }

    long lagMs() {
        return lagMs;
    }

    long maxLagMs() {
        return maxLagMs;
    }

    int publishedNodes() {
        return published.size();
    }

    int boundedNodes() {
        return (int) published.values().stream().filter(b -> b).count();
    }
}
