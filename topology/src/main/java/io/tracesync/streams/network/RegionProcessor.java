package io.tracesync.streams.network;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.FactorGate;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.Region;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.core.network.Restarts;
import io.tracesync.core.network.SlackGate;
import io.tracesync.streams.link.LinkSummaries;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.StoredValues;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The regions of one partition of the regions' topic ({@code network.regions}, docs/NETWORK-CORE.md, Regions): each
 * region's links in a {@link Region}, its ends (nodes of the region that end a link between regions, known from the
 * copies of those links' summaries) tied by the backbone's latest factors. At each emission every region that heard
 * news answers: its nodes' factors go to {@code sync.factors} where they changed by enough ({@link FactorGate}), and
 * its ends' factors, likewise gated, to the backbone as {@link NetworkInput} records. The links' summaries, the ends
 * and the backbone's factors are kept in stores, from which the regions are rebuilt when the task starts. With
 * {@code link.max.drift.ppm} each region has a twin of its links under the datasheet alone, tied by the backbone's
 * datasheet factors, and every record carries the node's answer from it ({@code datasheet}).
 */
public final class RegionProcessor extends ContextualProcessor<String, RegionInput, String, SpecificRecord> {

    private static final Logger LOG = LoggerFactory.getLogger(RegionProcessor.class);

    private final String linkStoreName;
    private final String endStoreName;
    private final String backboneStoreName;
    private final String factorStoreName;
    private final Function<String, String> regionOf;
    private final NetworkOptions options;
    private final Duration emitInterval;
    private final FactorGate gate;
    /** Which summaries a region applies; null: every one (a {@code links.min.change} of 0). */
    private final SlackGate slackGate;
    private final EmissionPacer pacer;
    private final PipelineStats stats;
    private KeyValueStore<LinkId, RegionLink> links;
    private KeyValueStore<String, String> ends;
    private KeyValueStore<String, SyncFactor> backbone;
    private KeyValueStore<String, SyncFactor> emitted;
    private final Map<String, Region> regions = new TreeMap<>();
    /** Per region, the backbone's latest factor of each of its ends, by name. */
    private final Map<String, Map<String, NodeFactor>> fromBackbone = new HashMap<>();
    /** The datasheet bound's largest drift, ppm; 0: none. */
    private final double maxDriftPpm;
    /**
     * With a largest drift, each region's links under the datasheet alone (every summary taken in), and the
     * backbone's latest factors of its ends under it.
     */
    private final Map<String, Region> datasheets = new HashMap<>();
    private final Map<String, Map<String, NodeFactor>> fromBackboneDatasheet = new HashMap<>();
    private final Set<String> endNodes = new HashSet<>();
    /** Per region, the summaries of its links arrived since the last emission, the last per link, as written. */
    private final Map<String, PendingInputs> pending = new TreeMap<>();
    /** How many links have a summary waiting. */
    private long waiting;
    private final Set<String> changed = new HashSet<>();
    private final PublishedFactors published = new PublishedFactors();
    /** Each end's factor last given to the backbone. */
    private final Map<String, NodeFactor> tied = new HashMap<>();
    private Restarts restarts = new Restarts();
    private long oldestPendingMs = Long.MAX_VALUE;

    public RegionProcessor(String linkStoreName, String endStoreName, String backboneStoreName,
            String factorStoreName, RegionPattern regionOf, NetworkOptions options, Duration emitInterval,
            double minChange, double linkMinChange, double maxShare, double maxDriftPpm, PipelineStats stats) {
        if (emitInterval.isZero()) {
            throw new IllegalArgumentException("regions need an emission interval above 0");
        }
        this.linkStoreName = linkStoreName;
        this.endStoreName = endStoreName;
        this.backboneStoreName = backboneStoreName;
        this.factorStoreName = factorStoreName;
        this.regionOf = regionOf.memoized();
        this.options = options;
        this.emitInterval = emitInterval;
        this.gate = new FactorGate(minChange, options.excursionPs());
        this.slackGate = linkMinChange > 0 ? new SlackGate(linkMinChange) : null;
        this.pacer = new EmissionPacer(maxShare);
        this.maxDriftPpm = maxDriftPpm;
        this.stats = stats;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        super.init(context);
        links = context.getStateStore(linkStoreName);
        ends = context.getStateStore(endStoreName);
        backbone = context.getStateStore(backboneStoreName);
        emitted = context.getStateStore(factorStoreName);
        regions.clear();
        fromBackbone.clear();
        datasheets.clear();
        fromBackboneDatasheet.clear();
        endNodes.clear();
        pending.clear();
        waiting = 0;
        changed.clear();
        tied.clear();
        published.clear();
        restarts = new Restarts();
        StoredValues.forEach(emitted, published::put);
        int restored = StoredValues.forEach(links, l -> {
            LinkSummary s = l.input().value().getSummary();
            apply(s, LinkSummaries.estimate(s), l.forestWeight());
        });
        try (KeyValueIterator<String, String> it = ends.all()) {
            it.forEachRemaining(kv -> end(kv.key));
        }
        StoredValues.forEach(backbone, this::fromBackbone);
        if (restored > 0) {
            LOG.info("{} regions rebuilt from {} stored link summaries and {} ends", regions.size(), restored,
                    endNodes.size());
            if (slackGate != null) {
                // the slack of every link, as the last answers before the stored state left it
                regions.forEach((name, region) -> region.answer(fromBackbone.getOrDefault(name, Map.of())));
            }
        }
        EmissionSchedule.start(context, emitInterval, () -> !changed.isEmpty() || waiting > 0, this::emit);
    }

    /**
     * A summary waits as written, the last of its link per region, until the next emission reads it
     * ({@link #arrived}); a backbone's factor is taken in at once.
     */
    @Override
    public void process(Record<String, RegionInput> record) {
        RegionInput in = record.value();
        if (in.encodedSummary()) {
            if (pending.computeIfAbsent(record.key(), r -> new PendingInputs()).add(in)) {
                stats.networkPending.set(++waiting);
            }
            oldestPendingMs = Math.min(oldestPendingMs, record.timestamp());
        } else if (in.value().getFactor() != null) {
            SyncFactor f = in.value().getFactor();
            backbone.put(f.getNode(), f);
            fromBackbone(f);
        } else if (in.value().getSummary() != null) {
            throw new IllegalArgumentException("a region reads summaries as written (RegionInputSerde), not "
                    + in.value().getSummary().getA() + "~" + in.value().getSummary().getB() + " read already");
        }
    }

    /**
     * A summary that reached region {@code name}'s records, the last of its link since the last emission: taken in
     * by the region of a link of its own, or, a copy of a link between regions, its end in the region made an end.
     */
    private void arrived(String name, RegionInput in) {
        LinkSummary s = in.value().getSummary();
        LinkKey key = new LinkKey(s.getA(), s.getB());
        // a link of the record's region taking part is found by its id there, without the regions of its ends
        Region region = regions.get(name);
        boolean own = region != null && region.edge(key) != 0;
        String within = own ? name : regionOf.apply(key.a());
        if (own || within.equals(regionOf.apply(key.b()))) {
            take(within, in);
        } else {
            String end = within.equals(name) ? key.a() : key.b();
            if (ends.get(end) == null) {
                ends.put(end, "");
                end(end);
            }
        }
    }

    /**
     * Applies a summary to its region, the forest holding {@code forestWeight} for it (NaN: by its rule); returns the
     * weight the forest holds (NaN: the link takes no part).
     */
    private double apply(LinkSummary s, LinkEstimate e, double forestWeight) {
        return apply(regionOf.apply(e.key().a()), s, e, forestWeight);
    }

    private double apply(String region, LinkSummary s, LinkEstimate e, double forestWeight) {
        applyDatasheet(region, s);
        double held = region(region).update(e, forestWeight);
        restarts.note(e.key(), LinkSummaries.restartedNs(s), e.aToB());
        changed.add(region);
        return held;
    }

    /**
     * Takes in a summary where it can move an answer ({@link SlackGate}): applied, and stored with the weight the
     * forest holds where that is not its rule's, so that a restart rebuilds the same forest: as it came
     * ({@link RegionLinkSerde}).
     */
    private void take(String region, RegionInput in) {
        LinkSummary s = in.value().getSummary();
        LinkEstimate e = LinkSummaries.estimate(s);
        if (slackGate == null || region(region).matters(slackGate, restarts, e, LinkSummaries.restartedNs(s))) {
            double w = apply(region, s, e, Double.NaN);
            links.put(new LinkId(s.getA(), s.getB()),
                    new RegionLink(in, w == options.weightOf(e) ? Double.NaN : w));
            stats.networkApplied.incrementAndGet();
        } else {
            applyDatasheet(region, s);
        }
    }

    /**
     * Applies a summary to its region's links under the datasheet alone, if kept: every summary taken in, whether or
     * not the slack gate lets it move the model's answer (as the network task's, docs/NETWORK-CORE.md).
     */
    private void applyDatasheet(String region, LinkSummary s) {
        if (maxDriftPpm > 0) {
            datasheet(region).update(LinkSummaries.datasheetEstimate(s, maxDriftPpm));
        }
    }

    private void end(String node) {
        String region = regionOf.apply(node);
        region(region).addNode(node);
        if (maxDriftPpm > 0) {
            datasheet(region).addNode(node);
        }
        endNodes.add(node);
        changed.add(region);
    }

    private void fromBackbone(SyncFactor f) {
        String region = regionOf.apply(f.getNode());
        PublishedFactor p = PublishedFactor.of(f);
        fromBackbone.computeIfAbsent(region, r -> new HashMap<>()).put(f.getNode(),
                new NodeFactor(f.getNode(), f.getReference(), p.factor()));
        if (maxDriftPpm > 0) {
            Map<String, NodeFactor> sheets = fromBackboneDatasheet.computeIfAbsent(region, r -> new HashMap<>());
            if (p.datasheet() == null) {
                sheets.remove(f.getNode());
            } else {
                sheets.put(f.getNode(), new NodeFactor(f.getNode(), f.getReference(), p.datasheet()));
            }
        }
        changed.add(region);
    }

    private Region region(String name) {
        return regions.computeIfAbsent(name, r -> new Region(regionOptions(r)));
    }

    private Region datasheet(String name) {
        return datasheets.computeIfAbsent(name, r -> new Region(regionOptions(r)));
    }

    /** The network's options for a region: its pinned reference only where it is one of the region's nodes. */
    private NetworkOptions regionOptions(String region) {
        String pinned = options.pinnedReference();
        return pinned != null && regionOf.apply(pinned).equals(region) ? options : options.withPinnedReference(null);
    }

    /** Answers the regions that changed and publishes what changed enough; true when a factor was published. */
    private boolean emit(long now) {
        if (changed.isEmpty() && waiting == 0 || !pacer.due(now)) {
            return false;
        }
        long began = System.nanoTime();
        stats.networkUpdates.addAndGet(waiting);
        pending.forEach((region, inputs) -> inputs.drain(in -> arrived(region, in)));
        waiting = 0;
        stats.networkPending.set(0);
        stats.factorLagMs.set(oldestPendingMs == Long.MAX_VALUE ? 0 : Math.max(0, now - oldestPendingMs));
        oldestPendingMs = Long.MAX_VALUE;
        long answering = System.nanoTime();
        boolean publishedAny = false;
        for (String name : changed) {
            Map<String, AnchoredFactor> answer = region(name).answer(fromBackbone.getOrDefault(name, Map.of()));
            Map<String, AnchoredFactor> sheet = maxDriftPpm > 0
                    ? datasheet(name).answer(fromBackboneDatasheet.getOrDefault(name, Map.of())) : Map.of();
            List<AnchoredFactor> sorted = answer.values().stream()
                    .sorted(Comparator.comparing(AnchoredFactor::node)).toList();
            for (AnchoredFactor f : sorted) {
                publishedAny |= publish(f, sheet.get(f.node()), now);
            }
        }
        changed.clear();
        stats.worstBoundPs.set(published.widest());
        // as the network task's: the summaries taken in cost per summary however the emissions are spaced
        long end = System.nanoTime();
        pacer.emitted(now + (end - began) / 1_000_000, end - answering);
        return publishedAny;
    }

    /**
     * Publishes a node's answer where it changed by enough, and gives an end's to the backbone likewise, each with
     * the node's answer under the datasheet alone ({@code sheet}, null: none); true when its factor was published.
     */
    private boolean publish(AnchoredFactor f, AnchoredFactor sheet, long now) {
        boolean any = false;
        PublishedFactors.Entry old = published.get(f.node());
        if (old == null || gate.matters(old.reference(), old.factor(), f.reference(), f.factor())) {
            SyncFactor r = FactorRecords.of(f, now, old == null ? 1 : old.version() + 1,
                    restarts.steadyFrom(f.node(), f.reference(), f.factor().toReference()), sheet);
            emitted.put(f.node(), r);
            published.put(r);
            stats.factorRecords.incrementAndGet();
            context().forward(new Record<>(f.node(), r, now));
            any = true;
        }
        if (endNodes.contains(f.node())) {
            NodeFactor last = tied.get(f.node());
            if (last == null || gate.matters(last.reference(), last.factor(), f.reference(), f.factor())) {
                tied.put(f.node(), f.nodeFactor());
                context().forward(new Record<>(f.node(), new NetworkInput(null,
                        FactorRecords.of(f, now, 0, Long.MIN_VALUE, sheet)), now));
            }
        }
        return any;
    }
}
