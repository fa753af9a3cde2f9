package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.link.LinkSummaries;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * The regions' task and the backbone's, each in a mock context over stores of its own, exchanging what they forward
 * as the topology routes it: a pair of tasks restarted from their stores goes on gating and answering as the pair it
 * replaces.
 */
class RegionProcessorTest {

    /** n0–n4 in region "n", n5–n9 in the region named by the empty string. */
    private static final RegionPattern REGIONS = RegionPattern.of("^(?=n[0-4])(n)");

    private final Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID(),
            "network.regions", REGIONS.pattern().pattern()));
    private final Topics topics = new Topics(settings);
    private final SimulatedTraces cluster = SimulatedTraces.run(10, 10_000_000_000L, 5);

    /** A record as a region task reads it off the regions' topic. */
    private RegionInput asRead(NetworkInput in) {
        return topics.regionInput.deserializer().deserialize("regions",
                topics.regionInput.serializer().serialize("regions", RegionInput.of(in)));
    }

    /** A region task and a backbone task over their stores (kept across restarts), and what they published. */
    private final class Pair {
        final MockProcessorContext<String, SpecificRecord> regionContext = new MockProcessorContext<>();
        final MockProcessorContext<String, NetworkInput> backboneContext = new MockProcessorContext<>();
        RegionProcessor region;
        BackboneProcessor backbone;
        final Map<String, SyncFactor> published = new TreeMap<>();
        final PipelineStats stats = new PipelineStats();

        Pair() {
            add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("region-links"), topics.linkId,
                    topics.regionLink).withLoggingDisabled().build(), true);
            add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("backbone-links"), topics.linkId,
                    topics.linkSummary).withLoggingDisabled().build(), false);
            KeyValueStore<String, String> ends = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                    "region-ends"), topics.node, Serdes.String()).withLoggingDisabled().build();
            add(ends, true);
            for (String name : List.of("region-backbone", "region-factors", "backbone-ties")) {
                KeyValueStore<String, SyncFactor> s = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                        topics.node, topics.syncFactor).withLoggingDisabled().build();
                add(s, name.startsWith("region"));
            }
            start();
        }

        private void add(KeyValueStore<?, ?> store, boolean region) {
            if (region) {
                store.init(regionContext.getStateStoreContext(), store);
                regionContext.addStateStore(store);
            } else {
                store.init(backboneContext.getStateStoreContext(), store);
                backboneContext.addStateStore(store);
            }
        }

        /** New processors over the stores, as a task taken over after a crash. */
        void start() {
            region = new RegionProcessor("region-links", "region-ends", "region-backbone", "region-factors", REGIONS,
                    settings.networkOptions(), Duration.ofSeconds(1), 0,
                    settings.number(TracesyncConfig.LINKS_MIN_CHANGE_CONFIG), 1, 0, stats);
            region.init(regionContext);
            backbone = new BackboneProcessor("backbone-links", "backbone-ties", REGIONS, settings.networkOptions(),
                    0, Duration.ofSeconds(1), 0, 1, 0);
            backbone.init(backboneContext);
        }

        /** Each summary to its regions, and a link between regions to the backbone too. */
        void feed(List<LinkSummary> summaries) {
            for (LinkSummary s : summaries) {
                String ra = REGIONS.apply(s.getA());
                String rb = REGIONS.apply(s.getB());
                region.process(new Record<>(ra, asRead(new NetworkInput(s, null)), 0L));
                if (!ra.equals(rb)) {
                    region.process(new Record<>(rb, asRead(new NetworkInput(s, null)), 0L));
                    backbone.process(new Record<>(s.getA() + "~" + s.getB(), new NetworkInput(s, null), 0L));
                }
            }
        }

        /** One exchange at {@code now}: the region task emits, the backbone takes its ties, emits, and back. */
        void exchange(long now) {
            last(regionContext.scheduledPunctuators()).getPunctuator().punctuate(now);
            for (var f : regionContext.forwarded()) {
                if (f.record().value() instanceof NetworkInput tie) {
                    backbone.process(new Record<>(f.record().key(), tie, now));
                } else {
                    SyncFactor r = (SyncFactor) f.record().value();
                    published.put(r.getNode(), r);
                }
            }
            regionContext.resetForwards();
            last(backboneContext.scheduledPunctuators()).getPunctuator().punctuate(now);
            for (var f : backboneContext.forwarded()) {
                region.process(new Record<>(f.record().key(), asRead(f.record().value()), now));
            }
            backboneContext.resetForwards();
        }
    }

    /** The punctuation the latest processor scheduled. */
    private static <T> T last(List<T> scheduled) {
        return scheduled.get(scheduled.size() - 1);
    }

    /** Every link's summary after its first {@code n} pairs. */
    private List<LinkSummary> summaries(int n) {
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        Map<LinkKey, Integer> counts = new TreeMap<>();
        for (SendReceive p : cluster.pairs) {
            if (counts.merge(p.link(), 1, Integer::sum) <= n) {
                p.applyTo(links.computeIfAbsent(p.link(), k -> new ConvexHullLink(settings.linkOptions())));
            }
        }
        List<LinkSummary> out = new ArrayList<>();
        links.forEach((k, l) -> out.add(LinkSummaries.of(k, l, LinkEstimate.of(k, l))));
        return out;
    }

    @Test
    void aRestartedPairOfTasksAnswersAsThePairItReplaces() {
        Pair kept = new Pair();
        Pair restarted = new Pair();
        for (Pair p : List.of(kept, restarted)) {
            for (int i = 1; i <= 12; i++) {
                p.feed(summaries(10 + 3 * i));
                p.exchange(i * 1000L);
            }
        }
        assertEquals(kept.published, restarted.published, "the same input, the same answers");
        assertEquals(10, kept.published.size(), "every node");
        assertEquals(1, kept.published.values().stream().map(SyncFactor::getReference).distinct().count());
        long appliedBefore = kept.stats.networkApplied.get();
        restarted.start();
        // taken over after a failure, both tasks look for something to emit at once, not an interval later
        assertEquals(EmissionSchedule.FIRST_CHECK, last(restarted.regionContext.scheduledPunctuators()).getInterval());
        assertEquals(EmissionSchedule.FIRST_CHECK,
                last(restarted.backboneContext.scheduledPunctuators()).getInterval());
        for (Pair p : List.of(kept, restarted)) {
            for (int i = 13; i <= 24; i++) {
                p.feed(summaries(10 + 3 * i));
                p.exchange(i * 1000L);
            }
        }
        long applied = kept.stats.networkApplied.get() - appliedBefore;
        assertTrue(applied > 0 && applied < kept.stats.networkUpdates.get() / 2,
                "the regions apply only what can move an answer: " + applied + " of " + kept.stats.networkUpdates);
        assertEquals(applied, restarted.stats.networkApplied.get() - appliedBefore,
                "rebuilt from its stores, a region gates the summaries as before (the slack of its last answers)");
        // rebuilt in another order, a network sums in another order: the same bounds to 10 ps, estimates to 0.1 ns
        assertEquals(kept.published.keySet(), restarted.published.keySet());
        kept.published.forEach((node, f) -> {
            SyncFactor g = restarted.published.get(node);
            assertEquals(f.getReference(), g.getReference(), node);
            assertEquals(f.getEvaluatedAtNs(), g.getEvaluatedAtNs(), node);
            assertEquals(f.getUpPs(), g.getUpPs(), 10, node);
            assertEquals(f.getDownPs(), g.getDownPs(), 10, node);
            long at = f.getEvaluatedAtNs();
            assertEquals(0, PublishedFactor.of(f).factor().toReference().apply(at)
                    .subtract(PublishedFactor.of(g).factor().toReference().apply(at)).hi(), 0.1, node);
        });
        assertFalse(kept.published.values().stream().anyMatch(f -> f.getUpPs() == null), "every node bounded");
        assertTrue(kept.published.values().stream().allMatch(f -> f.getVersion() > 12), "news of the later pairs");
    }
}
