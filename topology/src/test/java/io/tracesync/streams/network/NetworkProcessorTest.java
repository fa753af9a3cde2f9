package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ExcludedLink;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.Quality;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.link.LinkSummaries;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NetworkProcessorTest {

    private final Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID()));
    private final Topics topics = new Topics(settings);
    private final PipelineStats stats = new PipelineStats();
    private final MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
    private final SimulatedTraces cluster = SimulatedTraces.run(5, 10_000_000_000L, 11);

    @BeforeEach
    void stores() {
        addStores(context);
    }

    private void addStores(MockProcessorContext<String, SpecificRecord> context) {
        KeyValueStore<LinkId, LinkSummary> links = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore("links"), topics.linkId, topics.linkSummary).withLoggingDisabled().build();
        KeyValueStore<String, SyncFactor> factors = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore("factors"), topics.node, topics.syncFactor).withLoggingDisabled().build();
        KeyValueStore<String, TreeSnapshot> trees = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore("trees"), topics.node, topics.treeSnapshot).withLoggingDisabled().build();
        links.init(context.getStateStoreContext(), links);
        factors.init(context.getStateStoreContext(), factors);
        trees.init(context.getStateStoreContext(), trees);
        context.addStateStore(links);
        context.addStateStore(factors);
        context.addStateStore(trees);
    }

    private NetworkProcessor started() {
        return started(context, Duration.ofSeconds(1));
    }

    private NetworkProcessor started(MockProcessorContext<String, SpecificRecord> context, Duration emitInterval) {
        return started(context, emitInterval, 1);
    }

    private NetworkProcessor started(MockProcessorContext<String, SpecificRecord> context, Duration emitInterval,
            double maxShare) {
        return started(context, emitInterval, maxShare, 0);
    }

    private NetworkProcessor started(MockProcessorContext<String, SpecificRecord> context, Duration emitInterval,
            double maxShare, double minChange) {
        return started(context, emitInterval, maxShare, minChange, 0);
    }

    private NetworkProcessor started(MockProcessorContext<String, SpecificRecord> context, Duration emitInterval,
            double maxShare, double minChange, double linkMinChange) {
        NetworkProcessor p = new NetworkProcessor("links", "factors", "trees", settings.networkOptions(), emitInterval,
                minChange, linkMinChange, maxShare, 0, stats);
        p.init(context);
        return p;
    }

    private void punctuate(long now) {
        context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1).getPunctuator().punctuate(now);
    }

    /** Every link's summary after its first {@code n} pairs (all pairs when n is large). */
    private List<LinkSummary> summaries(int n) {
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        Map<LinkKey, Integer> counts = new TreeMap<>();
        for (SendReceive p : cluster.pairs) {
            if (counts.merge(p.link(), 1, Integer::sum) <= n) {
                p.applyTo(links.computeIfAbsent(p.link(), k -> new ConvexHullLink(settings.linkOptions())));
            }
        }
        return links.entrySet().stream()
                .map(e -> LinkSummaries.of(e.getKey(), e.getValue(), LinkEstimate.of(e.getKey(), e.getValue())))
                .toList();
    }

    private static void feed(NetworkProcessor p, List<LinkSummary> summaries) {
        summaries.forEach(s -> p.process(new Record<>(new LinkId(s.getA(), s.getB()), s, 0L)));
    }

    /** The summaries in order, each stamped with its position (ms) as record timestamp. */
    private static void feedStamped(NetworkProcessor p, List<LinkSummary> summaries, int from, int to) {
        for (int i = from; i < to; i++) {
            LinkSummary s = summaries.get(i);
            p.process(new Record<>(new LinkId(s.getA(), s.getB()), s, 1_000L + i));
        }
    }

    /**
     * Every link's summary after 5, 20, then all of its pairs: a stream in which factors change many times. Links
     * arrive in the reverse of the store's key order, so a rebuild from the store meets them in another order.
     */
    private List<LinkSummary> growingSummaries() {
        List<LinkSummary> all = new java.util.ArrayList<>();
        for (int n : new int[] {5, 20, Integer.MAX_VALUE}) {
            List<LinkSummary> batch = new java.util.ArrayList<>(summaries(n));
            java.util.Collections.reverse(batch);
            all.addAll(batch);
        }
        return all;
    }

    /** The factor records forwarded, each as (key, value, timestamp). */
    private static List<List<Object>> factorRecords(MockProcessorContext<String, SpecificRecord> context) {
        return context.forwarded().stream().map(MockProcessorContext.CapturedForward::record)
                .filter(r -> r.value() instanceof SyncFactor)
                .map(r -> List.<Object>of(r.key(), r.value(), r.timestamp())).toList();
    }

    private Map<String, SyncFactor> forwardedFactors() {
        return latestFactors(context);
    }

    private static Map<String, SyncFactor> latestFactors(MockProcessorContext<String, SpecificRecord> context) {
        Map<String, SyncFactor> out = new TreeMap<>();
        context.forwarded().stream().map(MockProcessorContext.CapturedForward::record)
                .filter(r -> r.value() instanceof SyncFactor)
                .forEach(r -> out.put(r.key(), (SyncFactor) r.value()));
        return out;
    }

    private long forwardedOf(Class<?> type) {
        return context.forwarded().stream().filter(f -> type.isInstance(f.record().value())).count();
    }

    private void assertOffline(Map<String, SyncFactor> got) {
        Map<String, NodeFactor> expected = OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                settings.networkOptions());
        assertEquals(expected.keySet(), got.keySet());
        expected.forEach((node, e) -> {
            assertEquals(e.reference(), got.get(node).getReference(), node);
            assertEquals(e.factor(), PublishedFactor.of(got.get(node)).factor(), node);
        });
    }

    @Test
    void factorsAreEmittedAtTheIntervalOnlyAndEqualTheOfflineAnswer() {
        NetworkProcessor p = started();
        feed(p, summaries(20));
        feed(p, summaries(Integer.MAX_VALUE));
        assertTrue(context.forwarded().isEmpty(), "nothing before the punctuation");
        punctuate(1_000);
        assertEquals(5, forwardedOf(SyncFactor.class), "one record per node for both batches");
        assertEquals(1, forwardedOf(TreeSnapshot.class));
        assertOffline(forwardedFactors());
        context.resetForwards();
        punctuate(2_000);
        assertTrue(context.forwarded().isEmpty(), "nothing changed, nothing emitted");
    }

    /**
     * An emission's evaluation keeps the next one at least its cost over the share away: at the same moment a
     * punctuation emits nothing however much arrived, and the summaries wait for the next that may.
     */
    @Test
    void emissionsTakeAtMostTheirShareOfTheThread() {
        NetworkProcessor p = started(context, Duration.ofSeconds(1), 0.01);
        feed(p, summaries(20));
        punctuate(1_000);
        assertEquals(5, forwardedOf(SyncFactor.class));
        context.resetForwards();
        feed(p, summaries(Integer.MAX_VALUE));
        punctuate(1_000); // its evaluation took more than nothing: at least 100 times that must pass first
        assertTrue(context.forwarded().isEmpty(), "an emission within the spacing: " + context.forwarded());
        assertTrue(stats.networkPending.get() > 0, "the summaries wait, and the metric says so");
        punctuate(1_000_000);
        assertEquals(5, forwardedOf(SyncFactor.class), "the summaries that waited, once the spacing passed");
        assertEquals(0, stats.networkPending.get());
        assertOffline(forwardedFactors());
    }

    /** A task taken over after a failure publishes as soon as it has something, not an interval later. */
    @Test
    void theFirstEmissionComesAsSoonAsThereIsSomethingThenOneAnInterval() {
        NetworkProcessor p = started();
        var first = context.scheduledPunctuators().get(0);
        assertEquals(EmissionSchedule.FIRST_CHECK, first.getInterval());
        first.getPunctuator().punctuate(100);
        assertTrue(context.forwarded().isEmpty() && !first.cancelled(), "nothing to emit yet: it keeps looking");
        feed(p, summaries(20));
        first.getPunctuator().punctuate(200);
        assertEquals(5, forwardedOf(SyncFactor.class), "emitted at the first look after the summaries");
        assertTrue(first.cancelled(), "then no more looking");
        var regular = context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1);
        assertEquals(Duration.ofSeconds(1), regular.getInterval(), "and one emission an interval");
    }

    @Test
    void aTakenOverTaskKeepsLookingUntilItsFirstEmissionPublishes() {
        NetworkProcessor first = started();
        feed(first, summaries(20));
        punctuate(1_000);
        context.resetForwards();
        int scheduled = context.scheduledPunctuators().size();
        NetworkProcessor second = started();
        var look = context.scheduledPunctuators().get(scheduled);
        look.getPunctuator().punctuate(1_100);
        assertTrue(context.forwarded().isEmpty(), "the restored network answers as published: no news, no emission");
        feed(second, summaries(20));
        look.getPunctuator().punctuate(1_150);
        assertEquals(0, forwardedOf(SyncFactor.class), "news that changes no answer: nothing published");
        assertTrue(!look.cancelled() && context.scheduledPunctuators().size() == scheduled + 1,
                "so the task keeps looking instead of waiting an interval");
        feed(second, summaries(Integer.MAX_VALUE));
        look.getPunctuator().punctuate(1_200);
        assertTrue(forwardedOf(SyncFactor.class) > 0, "it publishes at the first look after news");
        assertTrue(look.cancelled(), "then stops looking");
        assertEquals(Duration.ofSeconds(1), context.scheduledPunctuators().get(scheduled + 1).getInterval(),
                "and emits once an interval");
    }

    @Test
    void aRestartedTaskRebuildsTheForestFromItsStoreAndRepeatsNoFactor() {
        NetworkProcessor first = started();
        feed(first, summaries(20));
        punctuate(1_000);
        Map<String, SyncFactor> before = forwardedFactors();
        context.resetForwards();
        NetworkProcessor second = started();
        punctuate(2_000);
        assertEquals(0, forwardedOf(SyncFactor.class), "the emitted factors are remembered");
        feed(second, summaries(Integer.MAX_VALUE));
        punctuate(3_000);
        Map<String, SyncFactor> after = new TreeMap<>(before);
        after.putAll(forwardedFactors());
        assertOffline(after);
        forwardedFactors().forEach((node, f) -> assertEquals(before.get(node).getVersion() + 1, f.getVersion()));
    }

    @Test
    void theTreeIsKeptForQueriesItsVersionContinuesAfterARestartAndTheMetricsFollowTheLinks() {
        NetworkProcessor first = started();
        feed(first, summaries(5));
        punctuate(1_000);
        feed(first, summaries(Integer.MAX_VALUE));
        punctuate(2_000);
        KeyValueStore<String, TreeSnapshot> trees = context.getStateStore("trees");
        TreeSnapshot kept = trees.get(NetworkProcessor.TREE_KEY);
        List<TreeSnapshot> sent = context.forwarded().stream().map(f -> f.record().value())
                .filter(TreeSnapshot.class::isInstance).map(TreeSnapshot.class::cast).toList();
        assertEquals(sent.get(sent.size() - 1), kept, "the store holds the last snapshot sent");
        long accurate = summaries(Integer.MAX_VALUE).stream()
                .filter(s -> s.getQuality() == io.tracesync.avro.Quality.ACCURATE).count();
        assertEquals(accurate, stats.linksByQuality.get("ACCURATE").get());
        assertEquals(newReferences(sent), stats.referenceChanges.get());
        // the progress line's reference is the last tree's, never one tree behind: the largest component's
        Map<String, String> published = new TreeMap<>();
        forwardedFactors().forEach((node, f) -> published.put(node, f.getReference().toString()));
        String largest = kept.getComponents().stream().max(Comparator.comparingInt(c -> c.getNodes()))
                .orElseThrow().getReference().toString();
        assertEquals(largest, stats.reference.get());
        assertTrue(published.containsValue(largest), "the reference of the factors published last: " + published);
        // the widest bound shown by the progress line and the metric is that of the published factors
        long widest = forwardedFactors().values().stream().filter(f -> f.getUpPs() != null && f.getDownPs() != null)
                .mapToLong(f -> Math.max(f.getUpPs(), f.getDownPs())).max().orElse(-1);
        assertTrue(widest > 0);
        assertEquals(widest, stats.worstBoundPs.get());
        first.close();
        assertEquals(0, stats.linksByQuality.get("ACCURATE").get(), "a closed task counts no link");

        context.resetForwards();
        trees.put(NetworkProcessor.TREE_KEY, kept);
        NetworkProcessor second = started();
        assertEquals(accurate, stats.linksByQuality.get("ACCURATE").get(), "counted again from the store");
        feed(second, summaries(Integer.MAX_VALUE));
        punctuate(3_000);
        TreeSnapshot again = (TreeSnapshot) context.forwarded().stream().map(f -> f.record().value())
                .filter(TreeSnapshot.class::isInstance).findFirst().orElseThrow();
        assertEquals(kept.getVersion() + 1, again.getVersion(), "versions go on across restarts");
        second.close();
    }

    /**
     * Of the summaries arrived within an interval the network takes in each link's last, once: the factors are those
     * of every pair, the store holds the last summaries, and a link that leaves the network (FAIL) and comes back is
     * counted under its quality each time.
     */
    @Test
    void eachLinksLastSummaryIsTakenInOnceAndTheQualitiesFollowALinkLeavingAndComingBack() {
        NetworkProcessor p = started();
        List<LinkSummary> last = summaries(Integer.MAX_VALUE);
        feed(p, summaries(5));
        feed(p, summaries(20));
        feed(p, last);
        punctuate(1_000);
        assertEquals(last.size(), stats.networkApplied.get(), "one update per link");
        assertEquals(3L * last.size(), stats.networkUpdates.get(), "every arrival counted");
        assertOffline(forwardedFactors());
        KeyValueStore<LinkId, LinkSummary> links = context.getStateStore("links");
        last.forEach(s -> assertEquals(s, links.get(new LinkId(s.getA(), s.getB()))));
        long accurate = last.stream().filter(s -> s.getQuality() == Quality.ACCURATE).count();
        LinkSummary leaving = last.stream().filter(s -> s.getQuality() == Quality.ACCURATE).findFirst().orElseThrow();
        feed(p, List.of(LinkSummary.newBuilder(leaving).setQuality(Quality.FAIL).setEstimate(null).build()));
        punctuate(2_000);
        assertEquals(accurate - 1, stats.linksByQuality.get("ACCURATE").get());
        assertEquals(1, stats.linksByQuality.get("FAIL").get());
        feed(p, List.of(leaving));
        punctuate(3_000);
        assertEquals(accurate, stats.linksByQuality.get("ACCURATE").get(), "back under its quality");
        assertEquals(0, stats.linksByQuality.get("FAIL").get());
        assertOffline(forwardedFactors());
        p.close();
    }

    /**
     * Links that join no new node and stay out of the spanning tree can still change the reference (the node with the
     * most links): a new snapshot says so, as the factors do.
     */
    @Test
    void aReferenceThatChangesWithTheSameTreeIsSentInANewSnapshot() {
        NetworkProcessor p = started();
        java.util.Random random = new java.util.Random(3);
        List<LinkSummary> star = List.of(link("a", "b", 400, random), link("a", "c", 400, random),
                link("a", "d", 400, random), link("b", "e", 400, random));
        feed(p, star);
        punctuate(1_000);
        assertEquals("a", lastTree().getComponents().get(0).getReference().toString());
        List<io.tracesync.avro.TreeLink> edges = lastTree().getEdges();
        // b now has more links than a, through links of fewer pairs, which the tree does not take
        feed(p, List.of(link("b", "c", 20, random), link("b", "d", 20, random)));
        punctuate(2_000);
        assertEquals(edges, lastTree().getEdges(), "the same tree");
        assertEquals("b", forwardedFactors().get("c").getReference().toString());
        assertEquals("b", lastTree().getComponents().get(0).getReference().toString(), "the tree says so too");
        p.close();
    }

    /** A link x~y of clocks that agree, {@code n} exchanges 50 ms apart with delays of 50–150 µs. */
    private LinkSummary link(String x, String y, int n, java.util.Random random) {
        ConvexHullLink link = new ConvexHullLink(settings.linkOptions());
        long t0 = 1_700_000_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            long t = t0 + i * 50_000_000L;
            link.addAtoB(t, t + 50_000 + random.nextInt(100_000));
            link.addBtoA(t + 25_000_000, t + 25_050_000 + random.nextInt(100_000));
        }
        LinkKey key = new LinkKey(x, y);
        return LinkSummaries.of(key, link, LinkEstimate.of(key, link));
    }

    /** Per snapshot sent, the references that the one before lacked (all of the first's). */
    private static long newReferences(List<TreeSnapshot> sent) {
        long n = 0;
        java.util.Set<String> old = java.util.Set.of();
        for (TreeSnapshot t : sent) {
            java.util.Set<String> now = new java.util.HashSet<>();
            t.getComponents().forEach(c -> now.add(c.getReference()));
            java.util.Set<String> before = old;
            n += now.stream().filter(r -> !before.contains(r)).count();
            old = now;
        }
        return n;
    }

    @Test
    void withAZeroIntervalEverySummaryIsDecidedAtOnceAndStampedWithItsRecordTime() {
        NetworkProcessor p = started(context, Duration.ZERO);
        assertTrue(context.scheduledPunctuators().isEmpty(), "no wall-clock punctuation");
        List<LinkSummary> summaries = growingSummaries();
        feedStamped(p, summaries, 0, 1);
        assertEquals(2, forwardedOf(SyncFactor.class), "the first link's two nodes, at once");
        feedStamped(p, summaries, 1, summaries.size());
        assertOffline(forwardedFactors());
        List<List<Object>> records = factorRecords(context);
        for (int i = 1; i < records.size(); i++) {
            if (records.get(i).get(2).equals(records.get(i - 1).get(2))) {
                assertTrue(((String) records.get(i - 1).get(0)).compareTo((String) records.get(i).get(0)) < 0,
                        "one summary's records in node order, whatever the core's ids: " + records);
            }
        }
        for (List<Object> r : records) {
            long timestamp = (Long) r.get(2);
            assertEquals(timestamp, ((SyncFactor) r.get(1)).getValidFromMs(), "valid from the summary's record time");
            assertTrue(timestamp >= 1_000 && timestamp < 1_000 + summaries.size());
        }
    }

    @Test
    void withAZeroIntervalARestartedTaskEmitsExactlyTheRecordsOfAnUninterruptedOne() {
        List<LinkSummary> summaries = growingSummaries();
        MockProcessorContext<String, SpecificRecord> uninterrupted = new MockProcessorContext<>();
        addStores(uninterrupted);
        feedStamped(started(uninterrupted, Duration.ZERO), summaries, 0, summaries.size());

        int cut = summaries.size() / 2;
        feedStamped(started(context, Duration.ZERO), summaries, 0, cut);
        feedStamped(started(context, Duration.ZERO), summaries, cut, summaries.size());

        List<List<Object>> expected = factorRecords(uninterrupted);
        assertTrue(expected.size() > 10, "factors change many times: " + expected.size());
        assertEquals(expected, factorRecords(context));
    }

    /**
     * With the slack gate ({@code links.min.change} 10 %) a restarted task holds back exactly the summaries the
     * uninterrupted one did: it evaluates the network rebuilt from its store once, so it gates with the same slack
     * from the first summary on (cut before one the uninterrupted task held back).
     */
    @Test
    void withTheSlackGateARestartedTaskHoldsBackWhatAnUninterruptedOneDid() {
        List<LinkSummary> summaries = gradedSummaries();
        MockProcessorContext<String, SpecificRecord> uninterrupted = new MockProcessorContext<>();
        addStores(uninterrupted);
        NetworkProcessor p = started(uninterrupted, Duration.ZERO, 1, 0, 0.1);
        int cut = -1;
        for (int i = 0; i < summaries.size(); i++) {
            long before = stats.networkApplied.get();
            feedStamped(p, summaries, i, i + 1);
            if (cut < 0 && i >= summaries.size() / 2 && stats.networkApplied.get() == before) {
                cut = i;
            }
        }
        long applied = stats.networkApplied.get();
        assertTrue(cut > 0, applied + " of " + summaries.size() + " applied, none held back after the middle");

        feedStamped(started(context, Duration.ZERO, 1, 0, 0.1), summaries, 0, cut);
        feedStamped(started(context, Duration.ZERO, 1, 0, 0.1), summaries, cut, summaries.size());
        assertEquals(2 * applied, stats.networkApplied.get());
        assertEquals(factorRecords(uninterrupted), factorRecords(context));
    }

    /** Every link's summary after every tenth of its pairs, the links in turn. */
    private List<LinkSummary> gradedSummaries() {
        List<LinkSummary> all = new java.util.ArrayList<>();
        for (int n = 10; n <= 200; n += 10) {
            all.addAll(summaries(n));
        }
        return all;
    }

    /**
     * With {@code factors.min.change} 10 %, after every summary each node's published factor is bound, where the
     * node's data now ends, at most 10 % of the bound wider than the factor just evaluated there (which a processor
     * publishing every change shows): a factor renewed only when its bound at its own anchor moved would keep an
     * anchor the data has left, its bound grown with the distance.
     */
    @Test
    void aPublishedFactorIsRenewedOnceItsBoundWhereTheDataEndsGrewPastTheMinimumChange() {
        List<LinkSummary> summaries = new java.util.ArrayList<>();
        for (int n = 2; n <= 40; n += 2) {
            summaries.addAll(summaries(n));
        }
        MockProcessorContext<String, SpecificRecord> fresh = new MockProcessorContext<>();
        addStores(fresh);
        NetworkProcessor everyChange = started(fresh, Duration.ZERO, 1, 0);
        NetworkProcessor gated = started(context, Duration.ZERO, 1, 0.1);
        for (int i = 0; i < summaries.size(); i++) {
            feedStamped(everyChange, summaries, i, i + 1);
            feedStamped(gated, summaries, i, i + 1);
            Map<String, SyncFactor> published = forwardedFactors();
            for (SyncFactor r : latestFactors(fresh).values()) {
                Factor now = PublishedFactor.of(r).factor();
                Factor held = PublishedFactor.of(published.get(r.getNode())).factor();
                long t = now.anchorNs();
                long bound = Math.max(now.upAtPs(t), now.downAtPs(t));
                assertTrue(held.upAtPs(t) <= now.upAtPs(t) + 0.1 * bound + 2
                        && held.downAtPs(t) <= now.downAtPs(t) + 0.1 * bound + 2, r.getNode() + " after summary " + i
                        + ": published " + held + ", bound " + held.upAtPs(t) + "/" + held.downAtPs(t) + " ps at " + t
                        + " against " + now.upAtPs(t) + "/" + now.downAtPs(t));
            }
        }
        assertTrue(forwardedOf(SyncFactor.class) < factorRecords(fresh).size() / 2, "the gate holds most back: "
                + forwardedOf(SyncFactor.class) + " of " + factorRecords(fresh).size());
    }

    /**
     * A link whose estimate says b's clock is 5 ms later than its pairs showed contradicts the other paths: the
     * next snapshot lists it as excluded and the metric counts it; with its true summary back, it is not.
     */
    @Test
    void aLinkContradictingTheOthersIsLeftOutReportedAndBackOnceItAgrees() {
        List<LinkSummary> all = summaries(Integer.MAX_VALUE);
        NetworkProcessor p = started();
        feed(p, all);
        punctuate(1_000);
        TreeSnapshot first = lastTree();
        assertEquals(List.of(), first.getExcluded());
        assertEquals(0, stats.inconsistentLinks.get());
        // a link off the forest, so that the forest's paths check it
        Set<String> tree = new HashSet<>();
        first.getEdges().forEach(e -> tree.add(e.getA() + "~" + e.getB()));
        LinkSummary good = all.stream().filter(s -> s.getQuality() == io.tracesync.avro.Quality.ACCURATE
                && !tree.contains(s.getA() + "~" + s.getB())).findFirst().orElseThrow();
        LinkSummary bad = LinkSummary.newBuilder(good).setEstimate(new io.tracesync.avro.ClockMap(
                good.getEstimate().getSlopeHi(), good.getEstimate().getSlopeLo(),
                good.getEstimate().getOffsetHi() + 5_000_000, good.getEstimate().getOffsetLo())).build();
        feed(p, List.of(bad));
        punctuate(2_000);
        assertEquals(List.of(new ExcludedLink(good.getA(), good.getB())), lastTree().getExcluded());
        assertEquals(1, stats.inconsistentLinks.get());
        feed(p, List.of(good));
        punctuate(3_000);
        assertEquals(List.of(), lastTree().getExcluded());
        assertEquals(0, stats.inconsistentLinks.get());
    }

    private TreeSnapshot lastTree() {
        List<TreeSnapshot> sent = context.forwarded().stream().map(f -> f.record().value())
                .filter(TreeSnapshot.class::isInstance).map(TreeSnapshot.class::cast).toList();
        return sent.get(sent.size() - 1);
    }
}
