package io.tracesync.streams.link;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.link.LinkStateCodec;
import io.tracesync.core.link.PairEffect;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.matcher.InvalidTraceEventException;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds each matched pair to its link's incremental convex hulls (Jabbarifar 2013 ch. 3, Alg. 2–3), the state held
 * in a persistent store, and emits the link's {@link LinkSummary} when what the network core sees of it changes
 * enough: its quality, or its bounds, estimate or slope range by more than {@code minChange} (see
 * {@link #matters}). Most
 * pairs change nothing [Jabbarifar 2013, §3.7]: the hulls settle, so summaries are sparse.
 */
public final class LinkProcessor extends ContextualProcessor<LinkId, MatchedPairs, LinkId, LinkSummary> {

    private static final Logger LOG = LoggerFactory.getLogger(LinkProcessor.class);

    private final String storeName;
    private final LinkOptions options;
    private final double minChange;
    private final PipelineStats stats;
    private final Map<LinkKey, LinkEstimate> emitted = new HashMap<>();
    /** The links whose last summary showed their clocks turning at more than half the model's ρ′. */
    private final Set<LinkKey> nearModel = new HashSet<>();
    /** The task's links as objects, also those already written back: no decoding per pair. */
    private final Map<LinkKey, ConvexHullLink> links = new HashMap<>();
    /**
     * Each link's latest computed estimate, with the link version and latest time it was taken at: until the
     * version changes, only the bounds move, and by no more than the slope accuracy times the time moved.
     */
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
        stats.nearModelLinks.addAndGet(-nearModel.size());
        nearModel.clear();
    }

    /**
     * A batch of one link's pairs, in the order matched: at most one summary goes out for it, the last that
     * mattered — the ones before it would reach the network at the same point of the stream, each replaced by the
     * next.
     */
    @Override
    public void process(Record<LinkId, MatchedPairs> record) {
        Summary latest = null;
        for (MatchedPair p : record.value().getPairs()) {
            Summary summary = process(p);
            if (latest != null && summary != null && !latest.link.equals(summary.link)) {
                forward(record, latest); // a batch of several links' pairs: each link's last summary
            }
            latest = summary != null ? summary : latest;
        }
        if (latest != null) {
            forward(record, latest);
        }
    }

    private record Summary(LinkId link, LinkSummary value) {
    }

    private void forward(Record<LinkId, MatchedPairs> record, Summary summary) {
        stats.linkSummaries.incrementAndGet();
        context().forward(record.withKey(summary.link).withValue(summary.value));
    }

    /** One pair, in the order matched: the link's summary if the network must hear of the change, else null. */
    private Summary process(MatchedPair p) {
        SendReceive pair;
        try {
            pair = new SendReceive(p.getSender(), p.getSendNs(), p.getReceiver(),
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
        LinkQuality was = link.quality();
        if (pair.applyTo(link) == PairEffect.FAILED) {
            stats.contradictions.incrementAndGet();
            if (was != LinkQuality.FAIL) {
                LOG.warn("link {}: the pair {} contradicts the clock model (link.curvature {} ppb/s: a clock or "
                        + "frequency step?); the link is FAIL and starts again from it", key, p,
                        options.curvaturePpbPerS());
            }
        }
        store.put(id, link);
        stats.linkPairs.incrementAndGet();
        LinkEstimate before = emitted.get(key);
        Computed last = computed.get(key);
        boolean sameCorridor = last != null && last.link == link && last.version == link.version();
        if (sameCorridor && before != null && onlyAged(before, last, link.latestX())) {
            return null;
        }
        LinkEstimate now = sameCorridor ? last.estimate.atLatest(link) : LinkEstimate.of(key, link);
        computed.put(key, new Computed(link, link.version(), link.latestX(), now));
        if (matters(before, now)) {
            emitted.put(key, now);
            if (before == null || (before.quality() == LinkQuality.ACCURATE) != (now.quality() == LinkQuality.ACCURATE)) {
                stats.accurateLinks.addAndGet(now.quality() == LinkQuality.ACCURATE ? 1
                        : before != null ? -1 : 0);
            }
            watchTurn(key, link);
            return new Summary(id, LinkSummaries.of(key, link, now));
        }
        return null;
    }

    /**
     * Counts the links whose clocks turn at more than half the model allows, and says so once when a link starts
     * to: the model's margin is thin there, and a faster turn will contradict it.
     */
    private void watchTurn(LinkKey key, ConvexHullLink link) {
        double turn = link.observedCurvaturePpbPerS();
        boolean near = turn > options.curvaturePpbPerS() / 2;
        if (near && nearModel.add(key)) {
            stats.nearModelLinks.incrementAndGet();
            LOG.info("link {}: its clocks turn at {} ppb/s, more than half of link.curvature ({} ppb/s)", key,
                    String.format("%.1f", turn), options.curvaturePpbPerS());
        } else if (!near && nearModel.remove(key)) {
            stats.nearModelLinks.decrementAndGet();
        }
    }

    private record Computed(ConvexHullLink link, long version, long atX, LinkEstimate estimate) {
    }

    /**
     * Whether a link whose corridor did not change since {@code last} was computed can be left alone without
     * computing its bounds at {@code latestX}: no bound can have moved from {@code before}, the one emitted, by more
     * than {@code minChange} of it. The latest time is at or beyond every hull point, where the envelopes are
     * L_min and L_max (Poirier 2010 §3.1), so a bound moves with it by at most the slope accuracy α_max − α_min
     * times the distance (plus the change of the clock model's allowance), plus the rounding to the picosecond:
     * the summaries emitted are those of exact bounds for every pair (LinkProcessorTest), while consecutive pairs
     * of a settled link cost a comparison each.
     */
    private boolean onlyAged(LinkEstimate before, Computed last, long latestX) {
        LinkEstimate at = last.estimate;
        if (minChange == 0 || Double.isNaN(at.slopeAccuracy())) {
            return false;
        }
        // in picoseconds: 1e-9 above the doubles' rounding, one for the ceiling to the picosecond, one for the sum's;
        // under the clock model the allowance ε(t) of a window of length W moves by at most ρ′W/2 per ns, one more
        double rate = at.slopeAccuracy() + at.curvature() * last.link.windowNs() / 2;
        double moved = rate * Math.abs((double) latestX - last.atX) * 1000 * (1 + 1e-9) + (at.curvature() > 0 ? 3 : 2);
        return within(before.upPs(), at.upPs(), moved) && within(before.downPs(), at.downPs(), moved);
    }

    private boolean within(long beforePs, long atPs, double moved) {
        return beforePs != LinkEstimate.UNBOUNDED && atPs != LinkEstimate.UNBOUNDED
                && Math.abs((double) atPs - beforePs) + moved <= minChange * beforePs;
    }

    /**
     * Whether the network core must hear of the change from {@code before} to {@code now}: a new quality, a bound
     * moved by more than {@code minChange} of itself, the estimate moved at the latest time by more than that
     * fraction of the interval's width, or the slope range's ends or width by more than that fraction of its width
     * (with {@code minChange} 0, any change). A summary held back still holds: its bounds, carried to any later time
     * by its slope range and the clock model, contain the relation (docs/LINK-CORE.md).
     */
    boolean matters(LinkEstimate before, LinkEstimate now) {
        if (before == null) {
            return true;
        }
        if (before.quality() != now.quality() || (before.aToB() == null) != (now.aToB() == null)) {
            return true;
        }
        if (minChange == 0 || before.aToB() == null || !now.bounded() || !before.bounded()) {
            if (!Objects.equals(before.aToB(), now.aToB())
                    || Double.compare(before.slopeAccuracy(), now.slopeAccuracy()) != 0
                    || Double.compare(before.minSlope(), now.minSlope()) != 0
                    || Double.compare(before.maxSlope(), now.maxSlope()) != 0) {
                return true;
            }
        } else {
            double widthPs = (double) now.upPs() + now.downPs();
            double movedPs = before.aToB().apply(now.latestNs()).subtract(now.aToB().apply(now.latestNs())).hi()
                    * 1000;
            double slopes = now.maxSlope() - now.minSlope();
            if (Math.abs(movedPs) > minChange * widthPs
                    || Math.abs(before.minSlope() - now.minSlope()) > minChange * slopes
                    || Math.abs(before.maxSlope() - now.maxSlope()) > minChange * slopes
                    || Math.abs(before.slopeAccuracy() - now.slopeAccuracy()) > minChange * now.slopeAccuracy()) {
                return true;
            }
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
