package io.tracesync.streams.link;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.link.LinkStateCodec;
import io.tracesync.core.link.PairEffect;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.matcher.InvalidTraceEventException;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Feeds each matched pair to its link's incremental convex hulls (Jabbarifar 2013 ch. 3, Alg. 2–3), the state held
 * in a persistent store, and emits the link's {@link LinkSummary} when what the network core sees of it changes
 * enough: its quality, its estimate or slope range, or a bound by more than {@code minChange} of itself. Most
 * pairs change nothing (thesis §3.7: the hulls settle), so summaries are sparse.
 */
public final class LinkProcessor extends ContextualProcessor<LinkId, MatchedPair, LinkId, LinkSummary> {

    private final String storeName;
    private final LinkOptions options;
    private final double minChange;
    private final PipelineStats stats;
    private final Map<LinkKey, LinkEstimate> emitted = new HashMap<>();
    /** Each link's latest time and epoch when its summary was emitted. */
    private final Map<LinkKey, long[]> emittedAt = new HashMap<>();
    /** The task's links as objects, also those already written back: no decoding per pair. */
    private final Map<LinkKey, ConvexHullLink> links = new HashMap<>();
    /** Each link's latest estimate and the link version it was taken at: until that changes, only bounds move. */
    private final Map<LinkKey, Computed> computed = new HashMap<>();
    private KeyValueStore<LinkId, ConvexHullLink> store;

    public LinkProcessor(String storeName, LinkOptions options, double minChange, PipelineStats stats) {
        this.storeName = storeName;
        this.options = options;
        this.minChange = minChange;
        this.stats = stats;
    }

    /**
     * The links' persistent store ({@link LinkStateCodec} bytes, changelogged) behind a write-back buffer: a link's
     * state is encoded once per commit, however many pairs changed it.
     */
    public static StoreBuilder<KeyValueStore<LinkId, ConvexHullLink>> store(String name, Serde<LinkId> keys) {
        return WriteBackStoreBuilder.persistent(name, keys, stateSerde());
    }

    static Serde<ConvexHullLink> stateSerde() {
        return Serdes.serdeFrom((topic, link) -> link == null ? null : LinkStateCodec.encode(link),
                (topic, bytes) -> bytes == null ? null : LinkStateCodec.decode(bytes));
    }

    @Override
    public void init(ProcessorContext<LinkId, LinkSummary> context) {
        super.init(context);
        store = context.getStateStore(storeName);
        // (re)initialized after a restore or a rolled-back transaction: the store is the truth
        links.clear();
        computed.clear();
        emitted.clear();
        emittedAt.clear();
    }

    @Override
    public void process(Record<LinkId, MatchedPair> record) {
        MatchedPair p = record.value();
        io.tracesync.core.link.MatchedPair pair;
        try {
            pair = new io.tracesync.core.link.MatchedPair(p.getSender(), p.getSendNs(), p.getReceiver(),
                    p.getRecvNs());
        } catch (IllegalArgumentException e) {
            throw new InvalidTraceEventException("matched pair " + p + ": " + e.getMessage());
        }
        LinkKey key = pair.link();
        LinkId id = new LinkId(key.a(), key.b());
        ConvexHullLink link = links.computeIfAbsent(key, k -> {
            ConvexHullLink stored = store.get(id);
            return stored == null ? new ConvexHullLink(options) : stored;
        });
        PairEffect effect = pair.applyTo(link);
        store.put(id, link);
        stats.linkPairs.incrementAndGet();
        LinkEstimate before = emitted.get(key);
        if (effect != PairEffect.NARROWED && effect != PairEffect.FAILED && before != null
                && onlyAged(before, emittedAt.get(key), link)) {
            return;
        }
        Computed last = computed.get(key);
        LinkEstimate now = last != null && last.link == link && last.version == link.version()
                ? last.estimate.atLatest(link) : LinkEstimate.of(key, link);
        computed.put(key, new Computed(link, link.version(), now));
        if (matters(before, now)) {
            emitted.put(key, now);
            emittedAt.put(key, new long[] {link.latestX(), link.epoch()});
            if (before == null || (before.quality() == LinkQuality.ACCURATE) != (now.quality() == LinkQuality.ACCURATE)) {
                stats.accurateLinks.addAndGet(now.quality() == LinkQuality.ACCURATE ? 1
                        : before != null ? -1 : 0);
            }
            stats.linkSummaries.incrementAndGet();
            context().forward(record.withKey(id).withValue(LinkSummaries.of(key, link, now)));
        }
    }

    private record Computed(ConvexHullLink link, long version, LinkEstimate estimate) {
    }

    /**
     * Whether a link whose hulls did not change since {@code before} was emitted (at {@code at}: latest time,
     * epoch) can be left alone without computing its bounds: in the same epoch, moving the latest time widens each
     * bound by at most the slope accuracy times the distance (beyond the data the envelopes' slopes lie in
     * [α_min, α_max], docs/NETWORK-CORE.md), which here stays within {@code minChange} of the bound.
     */
    private boolean onlyAged(LinkEstimate before, long[] at, ConvexHullLink link) {
        if (minChange == 0 || link.epoch() != at[1] || before.upPs() == LinkEstimate.UNBOUNDED
                || before.downPs() == LinkEstimate.UNBOUNDED || Double.isNaN(before.slopeAccuracy())) {
            return false;
        }
        double widening = before.slopeAccuracy() * Math.abs((double) link.latestX() - at[0]) * 1000; // ps
        return widening <= minChange * Math.min(before.upPs(), before.downPs());
    }

    /** Whether the network core must hear of the change from {@code before} to {@code now}. */
    boolean matters(LinkEstimate before, LinkEstimate now) {
        if (before == null) {
            return true;
        }
        if (before.quality() != now.quality() || !Objects.equals(before.aToB(), now.aToB())
                || Double.compare(before.slopeAccuracy(), now.slopeAccuracy()) != 0
                || Double.compare(before.minSlope(), now.minSlope()) != 0) {
            return true;
        }
        return changed(before.upPs(), now.upPs()) || changed(before.downPs(), now.downPs());
    }

    private boolean changed(long beforePs, long nowPs) {
        if (beforePs == nowPs) {
            return false;
        }
        if (beforePs == LinkEstimate.UNBOUNDED || nowPs == LinkEstimate.UNBOUNDED) {
            return true;
        }
        return Math.abs(nowPs - beforePs) > minChange * beforePs;
    }
}
