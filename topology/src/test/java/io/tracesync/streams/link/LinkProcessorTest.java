package io.tracesync.streams.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.Quality;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.SummaryGate;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.errors.InvalidTraceEventException;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.sim.ClockDiscipline;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LinkProcessorTest {

    private final Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID())));
    private final PipelineStats stats = new PipelineStats();
    private final MockProcessorContext<LinkId, LinkSummary> context = new MockProcessorContext<>();
    private KeyValueStore<LinkId, ConvexHullLink> store;

    @BeforeEach
    void start() {
        store = WriteBackStoreBuilder.over(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("hulls"),
                topics.linkId, LinkProcessor.stateSerde()).withLoggingDisabled(), 3).build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
    }

    private LinkProcessor processor(double minChange) {
        LinkProcessor p = new LinkProcessor("hulls", LinkOptions.DEFAULT, minChange, stats);
        p.init(context);
        return p;
    }

    /** a sends at t, b (its clock 1000 ns ahead) receives after delay d; b's replies likewise. */
    private static MatchedPair ab(long t, long d) {
        return new MatchedPair("a", t, "b", t + 1000 + d);
    }

    private static MatchedPair ba(long t, long d) {
        return new MatchedPair("b", t + 1000, "a", t + d);
    }

    private static void send(LinkProcessor p, MatchedPair m) {
        p.process(new Record<>(new LinkId("a", "b"), new MatchedPairs(List.of(m)), 0L));
    }

    private List<LinkSummary> summaries() {
        return context.forwarded().stream().map(r -> (LinkSummary) r.record().value()).toList();
    }

    @Test
    void aSummaryGoesOutOnlyWhenWhatTheNetworkSeesChanges() {
        LinkProcessor p = processor(0);
        send(p, ab(0, 50));
        assertEquals(List.of(Quality.INCOMPLETE), summaries().stream().map(LinkSummary::getQuality).toList());
        send(p, ab(0, 50)); // the same constraint again: nothing the network core sees moves
        assertEquals(1, summaries().size());
        send(p, ba(1_000_000, 40));
        send(p, ab(2_000_000, 60));
        send(p, ba(3_000_000, 45));
        LinkSummary last = summaries().get(summaries().size() - 1);
        assertEquals(Quality.ACCURATE, last.getQuality());
        assertEquals(1, stats.accurateLinks.get());
        assertEquals(new LinkId("a", "b"), context.forwarded().get(0).record().key());
    }

    /** A step of b's clock beyond the clock model: counted, the link FAIL, then back once it has an estimate. */
    @Test
    void aPairThatContradictsTheClockModelIsCountedAndTheLinkRecovers() {
        LinkProcessor p = new LinkProcessor("hulls", LinkOptions.DEFAULT.withCurvature(20, 15_000_000_000L), 0,
                stats);
        p.init(context);
        long second = 1_000_000_000L;
        for (long t = 0; t < 20 * second; t += second / 10) {
            send(p, ab(t, 50));
            send(p, ba(t + second / 20, 40));
        }
        assertEquals(Quality.ACCURATE, summaries().get(summaries().size() - 1).getQuality());
        assertEquals(0, stats.contradictions.get());
        long step = 1_000_000; // b's clock jumps 1 ms back: its receives come "before" a's sends
        send(p, new MatchedPair("a", 20 * second, "b", 20 * second + 1000 + 50 - step));
        assertEquals(1, stats.contradictions.get());
        assertEquals(Quality.FAIL, summaries().get(summaries().size() - 1).getQuality());
        for (long t = 20 * second + second / 10; t < 25 * second; t += second / 10) {
            send(p, new MatchedPair("a", t, "b", t + 1000 + 50 - step));
            send(p, new MatchedPair("b", t + second / 20 + 1000 - step, "a", t + second / 20 + 40));
        }
        assertEquals(Quality.ACCURATE, summaries().get(summaries().size() - 1).getQuality());
        assertEquals(1, stats.contradictions.get(), "one step, one contradiction");
    }

    /**
     * Clocks whose relative frequency turns at 15 ppb/s: the summaries say so, and under a model of 20 ppb/s the link
     * is counted as running near it; under 40 ppb/s it is not.
     */
    @Test
    void theTurnOfTheClocksIsReportedAndALinkNearTheModelCounted() {
        long second = 1_000_000_000L;
        for (double model : new double[] {20, 40}) {
            context.resetForwards();
            PipelineStats own = new PipelineStats();
            LinkProcessor p = new LinkProcessor("hulls", new LinkOptions(240 * second, 0, 0).withCurvature(model,
                    15 * second), 0, own);
            p.init(context);
            store.delete(new LinkId("a", "b"));
            Random r = new Random(7);
            for (long t = 0; t < 8 * 60 * second; t += second / 10) {
                long bend = Math.round(7.5e-18 * t * (double) t); // κ/2 · t², κ = 15 ppb/s
                send(p, ab(t, bend + 20_000 + r.nextInt(50_000)));
                send(p, ba(t + second / 20, -bend + 20_000 + r.nextInt(50_000)));
            }
            Double observed = summaries().get(summaries().size() - 1).getObservedCurvaturePpbPerS();
            assertTrue(observed != null && Math.abs(observed - 15) < 2, "observed " + observed);
            assertEquals(model < 30 ? 1 : 0, own.nearModelLinks.get(), "under a model of " + model);
        }
    }

    /**
     * A simulated cluster's links under chrony across a WAN (its frequency updates step the relative frequencies by
     * tens of ppm a minute, beyond a model without κ): the summaries of some links carry the step their epochs
     * showed, and exactly those links are counted as stepped; on the same cluster without a daemon, none.
     */
    @Test
    void stepsBeyondTheModelAreReportedAndTheirLinksCounted() {
        for (boolean chrony : new boolean[] {true, false}) {
            context.resetForwards();
            List<LinkId> held = new java.util.ArrayList<>();
            try (var all = store.all()) {
                all.forEachRemaining(kv -> held.add(kv.key));
            }
            held.forEach(store::delete);
            PipelineStats own = new PipelineStats();
            LinkProcessor p = new LinkProcessor("hulls", LinkOptions.withModel(
                    LinkOptions.DEFAULT_HORIZON.toNanos(), 0, 0, null, LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos()),
                    0, own);
            p.init(context);
            SimulationConfig.Builder c = SimulationConfig.builder().nodes(6).durationNs(20 * 60_000_000_000L).seed(3);
            if (chrony) {
                c.discipline(ClockDiscipline.chrony(64_000_000_000L, 1_000_000, 0, 0));
            }
            Map<LinkId, Double> steps = new java.util.HashMap<>();
            for (SendReceive pair : SimulatedTraces.run(c.build()).pairs) {
                LinkId id = pair.sender().compareTo(pair.receiver()) < 0 ? new LinkId(pair.sender(), pair.receiver())
                        : new LinkId(pair.receiver(), pair.sender());
                p.process(new Record<>(id, new MatchedPairs(List.of(new MatchedPair(pair.sender(), pair.sendNs(),
                        pair.receiver(), pair.recvNs()))), 0L));
            }
            summaries().forEach(s -> steps.put(new LinkId(s.getA(), s.getB()), s.getObservedStepPpb()));
            long stepped = steps.values().stream().filter(v -> v != null && v > 0).count();
            assertTrue(chrony ? stepped > 0 : stepped == 0, stepped + " links stepped; chrony " + chrony);
            assertEquals(stepped, own.steppedLinks.get());
        }
    }

    @Test
    void smallBoundChangesAreHeldBackBelowTheThreshold() {
        LinkProcessor every = processor(0);
        // after four pairs the hulls are settled; slow messages later leave them alone and only move the link's
        // latest time, so the bounds there widen a little with every pair
        List<MatchedPair> pairs = List.of(ab(0, 50), ba(1_000_000, 40), ab(2_000_000, 60), ba(3_000_000, 45),
                ab(4_000_000, 5_000), ba(5_000_000, 5_000), ab(6_000_000, 5_000), ba(7_000_000, 5_000));
        pairs.forEach(m -> send(every, m));
        int all = summaries().size();
        context.resetForwards();
        start();
        LinkProcessor coarse = processor(0.5);
        pairs.forEach(m -> send(coarse, m));
        int coarseCount = summaries().size();
        assertEquals(8, all, "at 0 every change goes out");
        assertTrue(coarseCount >= 4 && coarseCount < all, coarseCount + " summaries at 50 %, " + all + " at 0");
    }

    /**
     * The processor skips exact bounds while a link's corridor is unchanged and its latest time has not moved far
     * enough to matter; deciding on exact bounds after every pair must emit the very same summaries, for any
     * threshold, also across the epoch rotations of a short horizon, under the default clock model as with linear
     * clocks, and whatever batches the pairs come in (a batch emits the last summary that mattered).
     */
    @Property(tries = 40)
    void skippingTheBoundsOfAgedLinksNeverChangesWhatIsEmitted(@ForAll @LongRange(min = 1, max = 1_000) long seed,
            @ForAll("thresholds") double minChange, @ForAll boolean shortHorizon, @ForAll boolean bending,
            @ForAll @IntRange(min = 1, max = 40) int batch) {
        start();
        context.resetForwards();
        LinkOptions linear = shortHorizon ? LinkOptions.DEFAULT.withHorizon(20_000_000_000L) : LinkOptions.DEFAULT;
        LinkOptions options = bending ? linear.withCurvature(LinkOptions.DEFAULT_CURVATURE_PPB_PER_S,
                5_000_000_000L) : linear;
        LinkProcessor p = new LinkProcessor("hulls", options, minChange, stats);
        p.init(context);
        SummaryGate gate = new SummaryGate(minChange);
        io.tracesync.sim.SimulatedTraces cluster = io.tracesync.sim.SimulatedTraces.run(2, 90_000_000_000L,
                seed);
        ConvexHullLink reference = new ConvexHullLink(options);
        LinkEstimate emitted = null;
        List<Long> expected = new java.util.ArrayList<>();
        List<MatchedPair> held = new java.util.ArrayList<>();
        Long lastOfBatch = null; // a batch emits the last of its pairs that mattered
        for (SendReceive m : cluster.pairs) {
            held.add(new MatchedPair(m.sender(), m.sendNs(), m.receiver(), m.recvNs()));
            m.applyTo(reference);
            LinkEstimate now = LinkEstimate.of(m.link(), reference);
            if (gate.matters(emitted, now)) {
                emitted = now;
                lastOfBatch = reference.pairs();
            }
            if (held.size() == batch || m == cluster.pairs.get(cluster.pairs.size() - 1)) {
                p.process(new Record<>(new LinkId("n0", "n1"), new MatchedPairs(List.copyOf(held)), 0L));
                held.clear();
                if (lastOfBatch != null) {
                    expected.add(lastOfBatch);
                    lastOfBatch = null;
                }
            }
        }
        assertTrue(cluster.pairs.size() > 500, cluster.pairs.size() + " pairs");
        List<Long> skipping = summaries().stream().map(LinkSummary::getPairs).toList();
        int first = firstDifference(expected, skipping);
        assertEquals(-1, first, () -> "summary " + first + ": exact bounds emit it at pair " + pairAt(expected, first)
                + ", skipping them at pair " + pairAt(skipping, first));
    }

    private static int firstDifference(List<Long> a, List<Long> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            if (!pairAt(a, i).equals(pairAt(b, i))) {
                return i;
            }
        }
        return -1;
    }

    private static Object pairAt(List<Long> summaries, int i) {
        return i < summaries.size() ? summaries.get(i) : "none";
    }

    @Provide
    Arbitrary<Double> thresholds() {
        return Arbitraries.of(0.0005, 0.01, 0.1, 0.5);
    }

    @Test
    void theHullLivesInTheStoreAndOutlivesTheProcessor() {
        send(processor(0), ab(0, 50));
        send(processor(0), ba(1_000_000, 40));
        LinkProcessor third = processor(0);
        send(third, ab(2_000_000, 60));
        send(third, ba(3_000_000, 45));
        LinkSummary last = summaries().get(summaries().size() - 1);
        assertEquals(4, last.getPairs());
        assertEquals(Quality.ACCURATE, last.getQuality());
    }

    @Test
    void aPairOfOneNodeWithItselfIsRejected() {
        LinkProcessor p = processor(0);
        assertThrows(InvalidTraceEventException.class,
                () -> p.process(new Record<>(new LinkId("a", "a"),
                        new MatchedPairs(List.of(new MatchedPair("a", 1L, "a", 2L))), 0L)));
    }
}
