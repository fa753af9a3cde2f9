package io.tracesync.streams.network;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Backbone;
import io.tracesync.core.network.FactorGate;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.streams.link.LinkSummaries;
import io.tracesync.streams.state.StoredValues;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backbone of a network solved in regions ({@code network.regions}, docs/NETWORK-CORE.md, Regions), one task:
 * the summaries of the links between regions and the regions' factors of their ends ({@link Backbone#tie}), both
 * kept in stores from which the backbone is rebuilt when the task starts. At each emission it answers for every end
 * and gives each end's factor, where it changed by enough ({@link FactorGate}), to the end's region, keyed by the
 * region's name. With {@code link.max.drift.ppm} a second backbone of the same links and ties under the datasheet
 * alone answers beside it, each factor given carrying the end's answer from it ({@code datasheet}).
 */
public final class BackboneProcessor extends ContextualProcessor<String, NetworkInput, String, NetworkInput> {

    private static final Logger LOG = LoggerFactory.getLogger(BackboneProcessor.class);

    private final String linkStoreName;
    private final String tieStoreName;
    private final Function<String, String> regionOf;
    private final NetworkOptions options;
    private final int perPair;
    private final Duration emitInterval;
    private final FactorGate gate;
    private final EmissionPacer pacer;
    private KeyValueStore<LinkId, LinkSummary> links;
    private KeyValueStore<String, SyncFactor> ties;
    private Backbone backbone;
    /** The datasheet bound's largest drift, ppm; 0: none. */
    private final double maxDriftPpm;
    /** With a largest drift, the links between regions and the ties under the datasheet alone; else null. */
    private Backbone datasheet;
    /** Each end's factor last given to its region. */
    private final Map<String, NodeFactor> given = new HashMap<>();
    private boolean dirty;

    public BackboneProcessor(String linkStoreName, String tieStoreName, RegionPattern regionOf,
            NetworkOptions options, int perPair, Duration emitInterval, double minChange, double maxShare,
            double maxDriftPpm) {
        this.linkStoreName = linkStoreName;
        this.tieStoreName = tieStoreName;
        this.regionOf = regionOf.memoized();
        this.options = options;
        this.perPair = perPair;
        this.emitInterval = emitInterval;
        this.gate = new FactorGate(minChange, options.excursionPs());
        this.pacer = new EmissionPacer(maxShare);
        this.maxDriftPpm = maxDriftPpm;
    }

    @Override
    public void init(ProcessorContext<String, NetworkInput> context) {
        super.init(context);
        links = context.getStateStore(linkStoreName);
        ties = context.getStateStore(tieStoreName);
        backbone = new Backbone(options, perPair);
        datasheet = maxDriftPpm > 0 ? new Backbone(options, perPair) : null;
        given.clear();
        int restored = StoredValues.forEach(links, this::apply);
        StoredValues.forEach(ties, this::tie);
        if (restored > 0) {
            LOG.info("backbone rebuilt from {} stored summaries of links between regions", restored);
        }
        dirty = restored > 0;
        EmissionSchedule.start(context, emitInterval, () -> dirty, this::emit);
    }

    @Override
    public void process(Record<String, NetworkInput> record) {
        NetworkInput in = record.value();
        if (in.getSummary() != null) {
            LinkSummary s = in.getSummary();
            links.put(new LinkId(s.getA(), s.getB()), s);
            apply(s);
        } else if (in.getFactor() != null) {
            ties.put(in.getFactor().getNode(), in.getFactor());
            tie(in.getFactor());
        }
        dirty = true;
    }

    private void apply(LinkSummary s) {
        LinkEstimate e = LinkSummaries.estimate(s);
        String ra = regionOf.apply(e.key().a());
        String rb = regionOf.apply(e.key().b());
        backbone.update(e, ra, rb);
        if (datasheet != null) {
            datasheet.update(LinkSummaries.datasheetEstimate(s, maxDriftPpm), ra, rb);
        }
    }

    private void tie(SyncFactor f) {
        PublishedFactor p = PublishedFactor.of(f);
        backbone.tie(f.getNode(), new NodeFactor(f.getNode(), f.getReference(), p.factor()));
        if (datasheet != null) {
            datasheet.tie(f.getNode(), p.datasheet() == null ? null
                    : new NodeFactor(f.getNode(), f.getReference(), p.datasheet()));
        }
    }

    /** Evaluates the backbone and gives the regions what changed enough; true when it gave any. */
    private boolean emit(long now) {
        if (!dirty || !pacer.due(now)) {
            return false;
        }
        dirty = false;
        long began = System.nanoTime();
        boolean gave = false;
        Map<String, AnchoredFactor> sheet = datasheet == null ? Map.of() : datasheet.evaluate();
        for (AnchoredFactor f : backbone.evaluate().values()) {
            NodeFactor last = given.get(f.node());
            if (last == null || gate.matters(last.reference(), last.factor(), f.reference(), f.factor())) {
                given.put(f.node(), f.nodeFactor());
                context().forward(new Record<>(regionOf.apply(f.node()),
                        new NetworkInput(null, FactorRecords.of(f, now, 0, Long.MIN_VALUE, sheet.get(f.node()))),
                        now));
                gave = true;
            }
        }
        long end = System.nanoTime();
        pacer.emitted(now + (end - began) / 1_000_000, end - began);
        return gave;
    }
}
