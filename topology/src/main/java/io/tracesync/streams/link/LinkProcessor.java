package io.tracesync.streams.link;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.link.LinkStateCodec;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.matcher.InvalidTraceEventException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

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
    private KeyValueStore<LinkId, byte[]> store;

    public LinkProcessor(String storeName, LinkOptions options, double minChange, PipelineStats stats) {
        this.storeName = storeName;
        this.options = options;
        this.minChange = minChange;
        this.stats = stats;
    }

    @Override
    public void init(ProcessorContext<LinkId, LinkSummary> context) {
        super.init(context);
        store = context.getStateStore(storeName);
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
        byte[] state = store.get(id);
        ConvexHullLink link = state == null ? new ConvexHullLink(options) : LinkStateCodec.decode(state);
        pair.applyTo(link);
        store.put(id, LinkStateCodec.encode(link));
        stats.linkPairs.incrementAndGet();
        LinkEstimate now = LinkEstimate.of(key, link);
        LinkEstimate before = emitted.get(key);
        if (matters(before, now)) {
            emitted.put(key, now);
            if (before == null || (before.quality() == LinkQuality.ACCURATE) != (now.quality() == LinkQuality.ACCURATE)) {
                stats.accurateLinks.addAndGet(now.quality() == LinkQuality.ACCURATE ? 1
                        : before != null ? -1 : 0);
            }
            stats.linkSummaries.incrementAndGet();
            context().forward(record.withKey(id).withValue(LinkSummaries.of(key, link, now)));
        }
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
