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
import io.tracesync.core.network.SummaryGate;
import io.tracesync.streams.errors.InvalidTraceEventException;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
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
 * enough ({@link SummaryGate}).
 */
public final class LinkProcessor extends ContextualProcessor<LinkId, MatchedPairs, LinkId, LinkSummary> {

    private static final Logger LOG = LoggerFactory.getLogger(LinkProcessor.class);

    private final String storeName;
    private final LinkOptions options;
    private final PipelineStats stats;
    private final SummaryGate gate;
    /** The links whose last summary showed their clocks turning at more than half the model's ρ′. */
    private final Set<LinkKey> nearModel = new HashSet<>();
    /** The links whose data showed a step of the relative frequency beyond the model. */
    private final Set<LinkKey> stepped = new HashSet<>();
    /** The task's links as objects, also those already written back: no decoding per pair. */
    private final Map<LinkKey, ConvexHullLink> links = new HashMap<>();
    private KeyValueStore<LinkId, ConvexHullLink> store;

    public LinkProcessor(String storeName, LinkOptions options, double minChange, PipelineStats stats) {
        this.storeName = storeName;
        this.options = options;
        this.gate = new SummaryGate(minChange);
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
        gate.clear();
        stats.nearModelLinks.addAndGet(-nearModel.size());
        nearModel.clear();
        stats.steppedLinks.addAndGet(-stepped.size());
        stepped.clear();
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
        LinkEstimate before = gate.emitted(key);
        LinkEstimate now = gate.offer(key, link);
        if (now != null) {
            if (before == null || (before.quality() == LinkQuality.ACCURATE) != (now.quality() == LinkQuality.ACCURATE)) {
                stats.accurateLinks.addAndGet(now.quality() == LinkQuality.ACCURATE ? 1
                        : before != null ? -1 : 0);
            }
            watchTurn(key, link);
            watchSteps(key, link);
            return new Summary(id, LinkSummaries.of(key, link, now));
        }
        return null;
    }

    /**
     * Counts the links whose clocks turn at more than half the model allows, and says so once when a link starts
     * to: the model's margin is thin there, and a faster turn will contradict it.
     */
    private void watchTurn(LinkKey key, ConvexHullLink link) {
        double turn = link.observedTurnPpbPerS();
        boolean near = turn > options.curvaturePpbPerS() / 2;
        if (near && nearModel.add(key)) {
            stats.nearModelLinks.incrementAndGet();
            LOG.info("link {}: its clocks turn at {} ppb/s, more than half of link.curvature ({} ppb/s)", key,
                    String.format("%.1f", turn), options.curvaturePpbPerS());
        } else if (!near && nearModel.remove(key)) {
            stats.nearModelLinks.decrementAndGet();
        }
    }

    /**
     * Counts the links whose data showed a step of the relative frequency beyond the model, and says so once per
     * link: its clocks left the model there, and its bounds need not have held around that time.
     */
    private void watchSteps(LinkKey key, ConvexHullLink link) {
        double step = link.observedStepPpb();
        if (step > 0 && stepped.add(key)) {
            stats.steppedLinks.incrementAndGet();
            LOG.warn("link {}: its relative frequency stepped by at least {} ppb beyond the clock model "
                    + "(link.curvature {} ppb/s, link.step.ppb {}, link.excursion {} ns): a time daemon's update or "
                    + "slew? Its bounds need not have held around it (docs/LINK-CORE.md, \"Frequency steps\", "
                    + "\"Offset excursions\")", key, String.format("%.0f", step), options.curvaturePpbPerS(),
                    options.stepPpb(), options.excursionNs());
        }
    }
}
