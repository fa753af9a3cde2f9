package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RegionalSyncTest {

    private static final LinkOptions BENDING = LinkOptions.DEFAULT.withCurvature(20, 30_000_000_000L);
    private static final long[] AWAY = {0, 1, -1, 1_000_000_000L, -1_000_000_000L, 3_600_000_000_000L,
        -3_600_000_000_000L};

    /**
     * Networks of exactly linear clocks cut into regions at random, their links fed a few messages at a time, under
     * the clock model or without it, the backbone holding every link between regions or the lightest few per pair:
     * after every step the backbone holds exactly those, every bounded factor holds the truth at its anchor and far
     * from it, and names a node of the network as its reference.
     */
    @Property(tries = 120)
    void everyRegionalBoundHoldsTheTruth(@ForAll long seed, @ForAll @IntRange(min = 2, max = 16) int nodes,
            @ForAll @IntRange(min = 0, max = 24) int extraLinks, @ForAll @IntRange(min = 1, max = 5) int regions) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, r.nextInt(4) > 0, 200, 10 + r.nextInt(100),
                1_000_000_000L + r.nextInt(60) * 1_000_000_000L, 1_000 + r.nextInt(200_000),
                r.nextBoolean() ? BENDING : LinkOptions.DEFAULT);
        Map<String, String> region = new HashMap<>();
        w.names.forEach(n -> region.put(n, "r" + r.nextInt(regions)));
        int perPair = r.nextInt(4);
        NetworkOptions options = r.nextInt(4) == 0
                ? NetworkOptions.DEFAULT.withPinnedReference(w.names.get(r.nextInt(nodes))) : NetworkOptions.DEFAULT;
        RegionalSync sync = new RegionalSync(options, region::get, perPair);
        Map<LinkKey, LinkEstimate> crossing = new HashMap<>();
        List<LinkKey> keys = List.copyOf(w.links.keySet());
        for (int step = 0; step < 6; step++) {
            for (int i = 0; i < 1 + r.nextInt(keys.size()); i++) {
                LinkKey k = keys.get(r.nextInt(keys.size()));
                w.feed(k, 1 + r.nextInt(40));
                LinkEstimate e = LinkEstimate.of(k, w.links.get(k));
                sync.update(e);
                if (!region.get(k.a()).equals(region.get(k.b()))) {
                    crossing.put(k, e);
                }
            }
            if (r.nextInt(4) == 0) {
                LinkKey k = keys.get(r.nextInt(keys.size()));
                sync.remove(k);
                crossing.remove(k);
            }
            assertEquals(lightest(crossing, region, perPair, options), sync.held());
            check(w, sync.evaluate(null), r);
        }
        w.feedAll();
        w.estimates().forEach(sync::update);
        check(w, sync.evaluate(null), r);
    }

    /** Per pair of regions the {@code perPair} lightest links that take part (all: 0), ties by key. */
    private static Set<LinkKey> lightest(Map<LinkKey, LinkEstimate> crossing, Map<String, String> region,
            int perPair, NetworkOptions options) {
        Map<Set<String>, List<LinkEstimate>> byPair = new HashMap<>();
        crossing.values().stream().filter(e -> !Double.isNaN(options.weightOf(e))).forEach(e -> byPair
                .computeIfAbsent(Set.of(region.get(e.key().a()), region.get(e.key().b())), p -> new ArrayList<>())
                .add(e));
        Set<LinkKey> out = new HashSet<>();
        for (List<LinkEstimate> links : byPair.values()) {
            links.sort(Comparator.comparingDouble((LinkEstimate e) -> options.weightOf(e))
                    .thenComparing(LinkEstimate::key));
            links.stream().limit(perPair == 0 ? Long.MAX_VALUE : perPair).forEach(e -> out.add(e.key()));
        }
        return out;
    }

    private static void check(LinearNetwork w, Map<String, NodeFactor> factors, Random r) {
        for (NodeFactor f : factors.values()) {
            assertTrue(w.names.contains(f.reference()), f::toString);
            AnchoredFactor a = new AnchoredFactor(f.node(), f.reference(), f.factor(), 0, 0, 0,
                    NetworkMethod.ALL_LINKS);
            for (long d : AWAY) {
                assertNull(w.violation(a, f.factor().anchorNs() + d));
            }
            assertNull(w.violation(a, f.factor().anchorNs() + (long) (r.nextDouble() * 1e11) - 50_000_000_000L));
        }
    }

    /** With one region the regional answer is the whole network's. */
    @Property(tries = 40)
    void oneRegionAnswersAsTheWholeNetwork(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int nodes,
            @ForAll @IntRange(min = 0, max = 20) int extraLinks) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, r.nextBoolean(), 200, 40,
                5_000_000_000L, 50_000, BENDING);
        w.feedAll();
        NetworkSync whole = new NetworkSync(NetworkOptions.DEFAULT);
        RegionalSync regional = new RegionalSync(NetworkOptions.DEFAULT, n -> "all", 0);
        w.estimates().forEach(e -> {
            whole.update(e);
            regional.update(e);
        });
        whole.drain();
        Map<String, NodeFactor> expected = new TreeMap<>();
        whole.evaluate(null).factors().forEach(f -> expected.put(f.node(), f.nodeFactor()));
        assertEquals(expected, regional.evaluate(null));
    }

    /** A node name that would sort among the hubs is refused. */
    @Test
    void aNodeNamedLikeAHubIsRefused() {
        RegionalSync sync = new RegionalSync(NetworkOptions.DEFAULT, n -> "r", 0);
        assertThrows(IllegalArgumentException.class, () -> sync.region(Backbone.HUB + "x"));
    }
}
