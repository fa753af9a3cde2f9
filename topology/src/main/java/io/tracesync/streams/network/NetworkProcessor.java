package io.tracesync.streams.network;

import io.tracesync.avro.Component;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.Quality;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.FactorGate;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.Restarts;
import io.tracesync.core.network.SlackGate;
import io.tracesync.core.network.TreeEdge;
import io.tracesync.streams.link.LinkSummaries;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.StoredValues;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single network task (Jabbarifar 2013 ch. 4–5): every link summary that can move an answer ({@link SlackGate})
 * updates the dynamic minimum spanning forest, its reference nodes and the factors along changed paths
 * ({@link NetworkSync}). The summary applied of every link is kept in a store, from which the forest is rebuilt
 * when the task starts (and evaluated once, so that the gate decides as it did before); the latest emitted factors and
 * tree snapshot are kept in stores too, for interactive queries (and the tree's version continues across restarts).
 * Factors are coalesced: every {@code emitInterval} of wall-clock time — no sooner than the last evaluation's cost
 * over {@code maxShare} allows ({@link EmissionPacer}) —, the nodes whose answer changed since the last emission and
 * by enough ({@link FactorGate}, against what each was last published, {@link PublishedFactors}) get one record
 * each, and the tree one snapshot if it or a component's reference changed. An interval of zero is the deterministic
 * mode: the decision follows every summary, stamped with the summary's record timestamp instead of the wall clock,
 * so the records emitted depend only on the input and its order, not on timing — a crashed and restarted run emits
 * exactly the records of an uninterrupted one (docs/STREAMS.md, Guarantees).
 */
public final class NetworkProcessor extends ContextualProcessor<LinkId, LinkSummary, String, SpecificRecord> {

    /** The key of the tree snapshots in {@code sync.tree}. */
    public static final String TREE_KEY = "forest";

    private static final Logger LOG = LoggerFactory.getLogger(NetworkProcessor.class);
    private static final long SPACING_LOG_EVERY_NS = 60_000_000_000L;

    private final String linkStoreName;
    private final String factorStoreName;
    private final String treeStoreName;
    private final NetworkOptions options;
    private final Duration emitInterval;
    private final FactorGate gate;
    /** Which summaries the network applies; null: every one (a {@code links.min.change} of 0). */
    private final SlackGate slackGate;
    private final EmissionPacer pacer;
    /** When spaced emissions were last reported (System.nanoTime). */
    private long spacingLogged = System.nanoTime() - SPACING_LOG_EVERY_NS;
    private final PipelineStats stats;
    private KeyValueStore<LinkId, LinkSummary> links;
    /** The summaries arrived since the last emission, the last per link. */
    private final PendingSummaries pending = new PendingSummaries();
    /** The summaries that arrived since the last emission, those replaced included. */
    private long arrivals;
    /** Per link id: the latest restart of the summaries applied since it took part. */
    private long[] heldRestart = new long[0];
    private final long[] slack = new long[4];
    private KeyValueStore<String, SyncFactor> emitted;
    private final PublishedFactors published = new PublishedFactors();
    private KeyValueStore<String, TreeSnapshot> trees;
    /**
     * Per link outside the network its latest quality (a link taking part has it in the estimate the network holds),
     * and the links per quality (for the metrics).
     */
    private final Map<LinkKey, Quality> qualities = new HashMap<>();
    private final Map<Quality, Long> perQuality = new EnumMap<>(Quality.class);
    /** Record time of the oldest summary not yet reflected in an emission (Long.MAX_VALUE: none). */
    private long oldestPendingMs = Long.MAX_VALUE;
    private NetworkSync network;
    /** The largest drift of the datasheet bound, ppm; 0: none. */
    private final double maxDriftPpm;
    /** The links under the datasheet alone ({@link LinkSummaries#datasheetEstimate}); null without a largest drift. */
    private NetworkSync datasheet;
    private List<TreeEdge> lastTree = List.of();
    private List<LinkKey> excluded = List.of();
    private long treeVersion;
    /** The references of the last snapshot's components: one that was not among them counts as a new reference. */
    private Set<String> references = Set.of();
    /** Where each node's clock may last have stepped, from the links' restarts: the factors' steady_from_ns. */
    private Restarts restarts = new Restarts();
    private boolean dirty;

    /**
     * @param minChange the factors' {@link FactorGate}
     * @param linkMinChange the links' {@code links.min.change}: above 0, the summaries pass a {@link SlackGate}
     * @param maxShare  the largest share of the thread evaluations may take ({@link EmissionPacer}); with a zero
     *                  interval (the deterministic mode) every summary emits regardless
     * @param maxDriftPpm the datasheet bound's largest drift ({@code link.max.drift.ppm}): above 0, each record
     *                  carries the node's factor under it too
     */
    public NetworkProcessor(String linkStoreName, String factorStoreName, String treeStoreName,
            NetworkOptions options, Duration emitInterval, double minChange, double linkMinChange, double maxShare,
            double maxDriftPpm, PipelineStats stats) {
        this.linkStoreName = linkStoreName;
        this.factorStoreName = factorStoreName;
        this.treeStoreName = treeStoreName;
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
        emitted = context.getStateStore(factorStoreName);
        published.clear();
        StoredValues.forEach(emitted, published::put);
        stats.worstBoundPs.set(published.widest());
        trees = context.getStateStore(treeStoreName);
        TreeSnapshot last = trees.get(TREE_KEY);
        treeVersion = last == null ? 0 : last.getVersion();
        references = last == null ? Set.of() : references(last);
        network = new NetworkSync(options);
        datasheet = maxDriftPpm > 0 ? new NetworkSync(options) : null;
        restarts = new Restarts();
        pending.clear();
        arrivals = 0;
        heldRestart = new long[0];
        stats.networkPending.set(0);
        qualities.clear();
        perQuality.clear();
        long rebuilding = System.nanoTime();
        int restored = StoredValues.forEach(links, s -> {
            apply(s, LinkSummaries.estimate(s), null, LinkSummaries.forestWeight(s));
            applyDatasheet(s);
        });
        if (restored > 0) {
            if (slackGate != null) {
                // the slack of every link, as the last emission before the stored state left it
                network.drain();
                network.evaluate(null);
            }
            LOG.info("network rebuilt from {} stored link summaries in {} ms", restored,
                    (System.nanoTime() - rebuilding) / 1_000_000);
        }
        // the stores were committed with the emission that took their summaries in: the rebuilt network answers as
        // published, and the first emission waits for news
        dirty = false;
        if (!emitInterval.isZero()) {
            EmissionSchedule.start(context, emitInterval, () -> dirty, this::emit);
        }
    }

    @Override
    public void process(Record<LinkId, LinkSummary> record) {
        LinkSummary s = record.value();
        LinkKey key = new LinkKey(s.getA(), s.getB());
        pending.add(network.edge(key), key, s);
        stats.networkPending.set(++arrivals);
        dirty = true;
        oldestPendingMs = Math.min(oldestPendingMs, record.timestamp());
        if (emitInterval.isZero()) {
            emit(record.timestamp());
        }
    }

    /**
     * Takes in a link's last summary since the emission before ({@code id}: the link's, 0 for none) where it can move
     * an answer ({@link SlackGate}); the id serves the gate and the bookkeeping, which maps keyed by link would cost
     * cache misses.
     */
    private void take(LinkSummary s, int id) {
        applyDatasheet(s);
        LinkEstimate e = LinkSummaries.estimate(s);
        LinkEstimate held = network.estimate(id, slack);
        boolean restarted = held != null && LinkSummaries.restartedNs(s) != heldRestart[id];
        if (slackGate == null || slackGate.matters(held, slack, restarted, e)) {
            // the forest may hold an earlier weight (NetworkOptions#weightSpread): stored, a restart rebuilds it
            int now = apply(s, e, held, Double.NaN);
            double w = now == 0 ? Double.NaN : network.forestWeight(now);
            s.setForestWeight(now == 0 || w == options.weightOf(e) ? null : w);
            links.put(new LinkId(s.getA(), s.getB()), s);
            stats.networkApplied.incrementAndGet();
        }
    }

    /**
     * Applies a summary in place of {@code held}, the estimate the network held of the link (null: none), the forest
     * holding {@code forestWeight} for it (NaN: by its rule); returns the link's id, 0 if it takes no part.
     */
    private int apply(LinkSummary s, LinkEstimate e, LinkEstimate held, double forestWeight) {
        long restart = LinkSummaries.restartedNs(s);
        int id = network.update(network.node(e.key().a()), network.node(e.key().b()), e, forestWeight);
        restarts.note(e.key(), restart, e.aToB());
        if (id != 0) {
            if (id >= heldRestart.length) {
                heldRestart = Arrays.copyOf(heldRestart, Math.max(id + 1, 2 * heldRestart.length));
            }
            heldRestart[id] = held == null ? restart : Math.max(heldRestart[id], restart);
        }
        Quality before = held != null ? Quality.valueOf(held.quality().name()) : qualities.get(e.key());
        if (held == null || id == 0) {
            qualities.put(e.key(), s.getQuality());
        }
        if (before != s.getQuality()) {
            count(before, -1);
            count(s.getQuality(), 1);
        }
        dirty = true;
        return id;
    }

    /**
     * Applies a summary to the links under the datasheet alone, if kept: every summary taken in, whether or not it
     * moves an answer of the model's (a summary held back is not stored, so a restart rebuilds them from the stored).
     */
    private void applyDatasheet(LinkSummary s) {
        if (datasheet != null) {
            datasheet.update(LinkSummaries.datasheetEstimate(s, maxDriftPpm));
        }
    }

    private void count(Quality q, long change) {
        if (q != null) {
            long n = perQuality.merge(q, change, Long::sum);
            stats.linksByQuality.computeIfAbsent(q.name(), k -> new java.util.concurrent.atomic.AtomicLong()).set(n);
        }
    }

    /** Evaluates the network and publishes what changed enough; true when a factor was published. */
    private boolean emit(long now) {
        if (!dirty || !emitInterval.isZero() && !pacer.due(now)) {
            return false;
        }
        dirty = false;
        long began = System.nanoTime();
        pending.drain(this::take);
        stats.networkUpdates.addAndGet(arrivals);
        arrivals = 0;
        stats.networkPending.set(0);
        stats.factorLagMs.set(Math.max(0, now - oldestPendingMs));
        oldestPendingMs = Long.MAX_VALUE;
        network.drain();
        long evaluating = System.nanoTime();
        // Every node, by name, evaluated at its component's latest time from every link (or along the tree).
        NetworkSync.Evaluation evaluation = network.evaluate(null);
        Map<String, AnchoredFactor> underDatasheet = evaluateDatasheet();
        boolean excludedChanged = reportExcluded(evaluation.excluded());
        // a component's reference may change with the same tree edges (the rule counts every link)
        boolean newReference = false;
        boolean publishedAny = false;
        for (AnchoredFactor f : evaluation.factors()) {
            newReference |= !references.contains(f.reference());
            PublishedFactors.Entry old = published.get(f.node());
            if (old == null || gate.matters(old.reference(), old.factor(), f.reference(), f.factor(),
                    f.excursionPs())) {
                SyncFactor r = FactorRecords.of(f, now, old == null ? 1 : old.version() + 1,
                        restarts.steadyFrom(f.node(), f.reference(), f.factor().toReference()),
                        underDatasheet.get(f.node()));
                emitted.put(f.node(), r);
                published.put(r);
                stats.factorRecords.incrementAndGet();
                context().forward(new Record<>(f.node(), r, now));
                publishedAny = true;
            }
        }
        stats.worstBoundPs.set(published.widest());
        List<TreeEdge> tree = network.tree();
        if (!tree.equals(lastTree) || excludedChanged || newReference) {
            lastTree = tree;
            TreeSnapshot snapshot = FactorRecords.tree(tree, evaluation.factors(), excluded, ++treeVersion, now);
            Set<String> after = references(snapshot);
            stats.referenceChanges.addAndGet(after.stream().filter(r -> !references.contains(r)).count());
            references = after;
            stats.reference.set(largestReference(snapshot));
            trees.put(TREE_KEY, snapshot);
            stats.treeRecords.incrementAndGet();
            context().forward(new Record<>(TREE_KEY, snapshot, now));
        }
        if (!emitInterval.isZero()) {
            long end = System.nanoTime();
            pace(now + (end - began) / 1_000_000, end - evaluating, evaluation.factors().size());
        }
        return publishedAny;
    }

    /** Every node's factor under the datasheet alone, by name; none without a largest drift. */
    private Map<String, AnchoredFactor> evaluateDatasheet() {
        if (datasheet == null) {
            return Map.of();
        }
        datasheet.drain();
        Map<String, AnchoredFactor> out = new HashMap<>();
        datasheet.evaluate(null).factors().forEach(f -> out.put(f.node(), f));
        return out;
    }

    /**
     * Spaces the next emission after this one, which ended at {@code endMs} and whose evaluation and publication took
     * {@code costNs} (applying the summaries costs per summary however they are spaced); says so, once a minute at
     * most.
     */
    private void pace(long endMs, long costNs, int nodes) {
        pacer.emitted(endMs, costNs);
        if (pacer.spacingMs() > emitInterval.toMillis() && System.nanoTime() - spacingLogged > SPACING_LOG_EVERY_NS) {
            spacingLogged = System.nanoTime();
            LOG.info("evaluating and publishing {} nodes took {} ms: the next emission waits {} ms "
                    + "(factors.emit.max.share {}, factors.emit.interval {} ms)", nodes, costNs / 1_000_000,
                    pacer.spacingMs(), pacer.maxShare(), emitInterval.toMillis());
        }
    }

    /** Logs the links found contradicting the others when that set changes, and counts them; true on a change. */
    private boolean reportExcluded(List<LinkKey> now) {
        stats.inconsistentLinks.set(now.size());
        if (!now.equals(excluded)) {
            if (!now.isEmpty()) {
                LOG.warn("links left out, each contradicting the other paths between its nodes (a negative cycle: "
                        + "a clock step, a wrong match or a non-linear stretch): {}", now);
            } else {
                LOG.info("no link contradicts the others any more");
            }
            excluded = now;
            return true;
        }
        return false;
    }

    /** The references of a snapshot's components. */
    private static Set<String> references(TreeSnapshot snapshot) {
        Set<String> all = new HashSet<>();
        snapshot.getComponents().forEach(c -> all.add(c.getReference()));
        return all;
    }

    @Override
    public void close() {
        // the task moves away: this instance no longer counts its links
        perQuality.keySet().forEach(q -> stats.linksByQuality.get(q.name()).set(0));
    }

    /** The largest component's reference (the first by name among equals), for people: set with every new tree. */
    private static String largestReference(TreeSnapshot snapshot) {
        return snapshot.getComponents().stream().max(Comparator.comparingInt(Component::getNodes)
                .thenComparing(c -> c.getReference().toString(), Comparator.reverseOrder()))
                .map(c -> c.getReference().toString()).orElse("");
    }
}
