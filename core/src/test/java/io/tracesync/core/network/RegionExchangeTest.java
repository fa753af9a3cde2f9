package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The regions' answer is a function of the links, not of the order of the exchanges: the regions and the backbone
 * as the stream runs them (each its own task, the ends' factors and the backbone's passed as messages that wait in
 * topics, a summary taken in at the next emission, a factor sent where it changed), in random interleavings, the
 * tasks restarted at a random moment from what their stores hold (summaries taken in, ends, the backbone's last
 * factors, ties) — and at the end, the exchanges run out, every node has the reference of the offline
 * {@link RegionalSync} fed the same links, holding the truth. The widths are near the offline's (over 1,500
 * networks, 13,425 nodes: a network's median ratio at most 1.00, 99.9 % of nodes within 1.054, the widest 1.27×),
 * checked as a network's median within 1.01 and every node within 1.5×: the forests, whose weights are held within
 * the weight spread, and the ties, which carry what earlier exchanges knew, depend on the order of the news. Without {@link Backbone}'s reference rule (a hub is never a
 * reference) the last answer's reference kept its place after a restart whatever the links.
 */
class RegionExchangeTest {

    private static final LinkOptions BENDING = LinkOptions.DEFAULT.withCurvature(20, 30_000_000_000L);

    @Property(tries = 60)
    void theAnswerDoesNotDependOnTheExchangesOrder(@ForAll long seed,
            @ForAll @IntRange(min = 4, max = 14) int nodes, @ForAll @IntRange(min = 0, max = 20) int extraLinks,
            @ForAll @IntRange(min = 2, max = 4) int regionCount) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, true, 200, 40, 20_000_000_000L,
                1_000 + r.nextInt(100_000), r.nextBoolean() ? BENDING : LinkOptions.DEFAULT);
        Map<String, String> region = new HashMap<>();
        w.names.forEach(n -> region.put(n, "r" + r.nextInt(regionCount)));
        NetworkOptions options = r.nextBoolean() ? NetworkOptions.DEFAULT
                : NetworkOptions.DEFAULT.withReferenceRule(ReferenceRule.CENTROID);
        Tasks tasks = new Tasks(options, region::get);
        List<LinkKey> keys = List.copyOf(w.links.keySet());
        int crashAt = r.nextBoolean() ? r.nextInt(400) : -1;
        for (int step = 0; step < 600; step++) {
            if (step == crashAt) {
                tasks.restart();
            }
            switch (r.nextInt(5)) {
                case 0 -> {
                    for (int i = 0; i < 1 + r.nextInt(keys.size()); i++) {
                        LinkKey k = keys.get(r.nextInt(keys.size()));
                        if (w.feed(k, 1 + r.nextInt(10)) > 0) {
                            tasks.summary(LinkEstimate.of(k, w.links.get(k)));
                        }
                    }
                }
                case 1 -> tasks.regionsTakeMessages(1 + r.nextInt(20));
                case 2 -> tasks.regionsEmit();
                case 3 -> tasks.backboneTakesMessages(1 + r.nextInt(20));
                default -> tasks.backboneEmits();
            }
        }
        w.feedAll();
        w.estimates().forEach(tasks::summary);
        for (int i = 0; i < 40; i++) {
            tasks.regionsTakeMessages(Integer.MAX_VALUE);
            tasks.regionsEmit();
            tasks.backboneTakesMessages(Integer.MAX_VALUE);
            tasks.backboneEmits();
        }
        tasks.regionsTakeMessages(Integer.MAX_VALUE);
        tasks.regionsEmit();

        RegionalSync offline = new RegionalSync(options, region::get, 0);
        w.estimates().forEach(offline::update);
        Map<String, NodeFactor> expected = Map.of();
        for (int i = 0; i < 40; i++) {
            expected = offline.evaluate(null);
        }
        assertEquals(expected.keySet(), tasks.published.keySet());
        List<Double> ratios = new ArrayList<>();
        for (NodeFactor e : expected.values()) {
            NodeFactor got = tasks.published.get(e.node());
            assertEquals(e.reference(), got.reference(), () -> e + " against " + got);
            long width = e.factor().upPs() + e.factor().downPs();
            long gotWidth = got.factor().upPs() + got.factor().downPs();
            assertTrue(gotWidth <= 1.5 * width + 10, () -> e + " against " + got);
            if (width > 0) {
                ratios.add((double) gotWidth / width);
            }
            assertNull(w.violation(new AnchoredFactor(got.node(), got.reference(), got.factor(), 0, 0, 0,
                    NetworkMethod.ALL_LINKS), got.factor().anchorNs()));
        }
        ratios.sort(null);
        assertTrue(ratios.isEmpty() || ratios.get((ratios.size() - 1) / 2) <= 1.01,
                () -> "widths against the offline's: " + ratios);
    }

    /** The region tasks and the backbone task, their stores and the messages between them. */
    private static final class Tasks {
        private final NetworkOptions options;
        private final Function<String, String> regionOf;
        // the stores, and the messages waiting in topics: what a restart keeps
        private final Map<LinkKey, LinkEstimate> regionLinks = new HashMap<>();
        private final Set<String> ends = new HashSet<>();
        private final Map<String, NodeFactor> backboneFactors = new HashMap<>();
        private final Map<LinkKey, LinkEstimate> backboneLinks = new HashMap<>();
        private final Map<String, NodeFactor> ties = new HashMap<>();
        private final Deque<Object> toRegions = new ArrayDeque<>();
        private final Deque<Object> toBackbone = new ArrayDeque<>();
        final Map<String, NodeFactor> published = new TreeMap<>();
        // what a restart loses
        private final Map<String, Region> regions = new TreeMap<>();
        private final Map<String, Map<String, NodeFactor>> fromBackbone = new HashMap<>();
        private final Map<LinkKey, LinkEstimate> pending = new LinkedHashMap<>();
        private final Map<String, NodeFactor> tied = new HashMap<>();
        private final Map<String, NodeFactor> given = new HashMap<>();
        private Backbone backbone;

        Tasks(NetworkOptions options, Function<String, String> regionOf) {
            this.options = options;
            this.regionOf = regionOf;
            this.backbone = new Backbone(options, 0);
        }

        /** A link's summary, to its region or, between regions, as a copy to both ends' regions and the backbone. */
        void summary(LinkEstimate e) {
            toRegions.add(e);
            if (!regionOf.apply(e.key().a()).equals(regionOf.apply(e.key().b()))) {
                toBackbone.add(e);
            }
        }

        void regionsTakeMessages(int count) {
            for (int i = 0; i < count && !toRegions.isEmpty(); i++) {
                Object m = toRegions.poll();
                if (m instanceof NodeFactor f) {
                    backboneFactors.put(f.node(), f);
                    fromBackbone(f);
                } else {
                    LinkEstimate e = (LinkEstimate) m;
                    if (regionOf.apply(e.key().a()).equals(regionOf.apply(e.key().b()))) {
                        pending.put(e.key(), e);
                    } else {
                        end(e.key().a());
                        end(e.key().b());
                    }
                }
            }
        }

        void regionsEmit() {
            pending.values().forEach(e -> {
                region(e.key().a()).update(e);
                regionLinks.put(e.key(), e);
            });
            pending.clear();
            regions.forEach((name, region) -> region.answer(fromBackbone.getOrDefault(name, Map.of()))
                    .forEach((node, f) -> {
                        NodeFactor n = f.nodeFactor();
                        published.put(node, n);
                        if (ends.contains(node) && changed(tied.get(node), n)) {
                            tied.put(node, n);
                            toBackbone.add(n);
                        }
                    }));
        }

        void backboneTakesMessages(int count) {
            for (int i = 0; i < count && !toBackbone.isEmpty(); i++) {
                Object m = toBackbone.poll();
                if (m instanceof NodeFactor f) {
                    ties.put(f.node(), f);
                    backbone.tie(f.node(), f);
                } else {
                    LinkEstimate e = (LinkEstimate) m;
                    backboneLinks.put(e.key(), e);
                    backbone.update(e, regionOf.apply(e.key().a()), regionOf.apply(e.key().b()));
                }
            }
        }

        void backboneEmits() {
            backbone.evaluate().forEach((node, f) -> {
                if (changed(given.get(node), f.nodeFactor())) {
                    given.put(node, f.nodeFactor());
                    toRegions.add(f.nodeFactor());
                }
            });
        }

        /** Every task restarted from its stores. */
        void restart() {
            regions.clear();
            fromBackbone.clear();
            pending.clear();
            tied.clear();
            given.clear();
            regionLinks.values().forEach(e -> region(e.key().a()).update(e));
            ends.forEach(u -> region(u).addNode(u));
            backboneFactors.values().forEach(this::fromBackbone);
            backbone = new Backbone(options, 0);
            backboneLinks.values().forEach(e ->
                    backbone.update(e, regionOf.apply(e.key().a()), regionOf.apply(e.key().b())));
            ties.values().forEach(f -> backbone.tie(f.node(), f));
        }

        private void end(String node) {
            ends.add(node);
            region(node).addNode(node);
        }

        private void fromBackbone(NodeFactor f) {
            fromBackbone.computeIfAbsent(regionOf.apply(f.node()), x -> new HashMap<>()).put(f.node(), f);
        }

        private Region region(String node) {
            return regions.computeIfAbsent(regionOf.apply(node), x -> new Region(options));
        }

        private static boolean changed(NodeFactor old, NodeFactor now) {
            return old == null || !old.equals(now);
        }
    }
}
