package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.numeric.ClockMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class NetworkIntervalsTest {

    private static final NetworkIntervals.Weighting WEIGHTING = NetworkIntervals.Weighting.INVERSE_WIDTH;

    /**
     * Networks of exactly linear clocks, fed a few messages at a time: after every step, every bounded factor of
     * both methods holds the truth at its anchor and far from it (its growth), the estimate lies inside its own
     * interval, and the all-links interval lies inside the tree's.
     */
    @Property(tries = 150)
    void everyBoundHoldsTheTruthAndAllLinksAreNeverWiderThanTheTree(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 12) int nodes, @ForAll @IntRange(min = 0, max = 20) int extraLinks) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, r.nextInt(4) > 0, 200,
                10 + r.nextInt(100), 1_000_000_000L + r.nextInt(60) * 1_000_000_000L, 1_000 + r.nextInt(200_000));
        NetworkSync net = new NetworkSync(r.nextInt(4) == 0
                ? NetworkOptions.DEFAULT.withPinnedReference(w.names.get(r.nextInt(nodes))) : NetworkOptions.DEFAULT);
        w.names.forEach(net::addNode);
        List<LinkKey> keys = new ArrayList<>(w.links.keySet());
        Map<LinkKey, LinkEstimate> live = new TreeMap<>();
        for (int step = 0; step < 12 && !keys.isEmpty(); step++) {
            for (int i = 0; i < 1 + r.nextInt(keys.size()); i++) {
                LinkKey k = keys.get(r.nextInt(keys.size()));
                w.feed(k, 1 + r.nextInt(30));
                LinkEstimate e = LinkEstimate.of(k, w.links.get(k));
                net.update(e);
                if (Double.isNaN(net.options().weightOf(e))) {
                    live.remove(k);
                } else {
                    live.put(k, e);
                }
            }
            if (r.nextInt(3) == 0) {
                LinkKey k = keys.get(r.nextInt(keys.size()));
                net.remove(k);
                live.remove(k);
            }
            net.drain();
            assertEquals(live, componentLinks(net), "the links evaluate sees are the graph's, freed slots left out");
            check(w, net, r);
        }
        w.feedAll();
        w.estimates().forEach(net::update);
        net.drain();
        check(w, net, r);
    }

    /**
     * A sample a random seed found: an hour from the anchor the all-links band's lower edge lay 4.56 ps below the
     * tree's, more than the 2 ps of rounding at the anchor: the bounds grow at rates held as doubles.
     */
    @Test
    void farFromTheAnchorTheEdgesAgreeToTheGrowthRatesRounding() {
        everyBoundHoldsTheTruthAndAllLinksAreNeverWiderThanTheTree(10331, 10, 0);
    }

    /**
     * Another: clocks 1.7–2.7 times as fast as the reference's, an hour from the anchor the all-links band's lower
     * edge lay 7.5 ps below the tree's — its bound grows at 1.72 reference ns per ns against the tree's 1.06, and a
     * grown bound is rounded up by a relative 2^-48 of its growth (22 ps of 6.2 ms).
     */
    @Test
    void farFromTheAnchorTheEdgesAgreeToTheGrowthsRoundingUp() {
        everyBoundHoldsTheTruthAndAllLinksAreNeverWiderThanTheTree(-4316635961965762241L, 12, 3);
    }

    private static Map<LinkKey, LinkEstimate> componentLinks(NetworkSync net) {
        Map<LinkKey, LinkEstimate> out = new TreeMap<>();
        for (NetworkIntervals.Component c : net.components()) {
            for (LinkEstimate e : c.links()) {
                assertNull(out.put(e.key(), e), "a link in two components: " + e.key());
            }
        }
        return out;
    }

    private static void check(LinearNetwork w, NetworkSync net, Random r) {
        NetworkSync.Evaluation all = net.evaluate(NetworkMethod.ALL_LINKS, WEIGHTING, null);
        NetworkSync.Evaluation tree = net.evaluate(NetworkMethod.TREE, null, null);
        assertEquals(List.of(), all.excluded(), "linear clocks are never inconsistent");
        assertEquals(all.factors().size(), tree.factors().size());
        for (int i = 0; i < all.factors().size(); i++) {
            AnchoredFactor a = all.factors().get(i);
            AnchoredFactor t = tree.factors().get(i);
            assertEquals(a.node(), t.node());
            assertEquals(a.factor().anchorNs(), t.factor().anchorNs(), "one evaluation point per node");
            assertEquals(t.factor().upPs(), t.treeUpPs(), t::toString);
            assertEquals(t.factor().downPs(), t.treeDownPs(), t::toString);
            if (t.factor().bounded()) {
                assertTrue(a.factor().bounded(), "a bounded tree path is one of the paths: " + a);
                // the interval [T_v − down, T_v + up] of z: shifting the map moves both ends by the same amount
                assertTrue(a.factor().upPs() + a.factor().downPs() <= t.factor().upPs() + t.factor().downPs() + 2,
                        a + " wider than " + t);
                assertTrue(a.factor().upPs() <= a.treeUpPs() && a.factor().downPs() <= a.treeDownPs(), a::toString);
            }
            for (long d : new long[] {0, 1, -1, 1_000_000_000L, -1_000_000_000L, 3_600_000_000_000L,
                    -3_600_000_000_000L, (long) (r.nextDouble() * 1e11) - 50_000_000_000L}) {
                long at = a.factor().anchorNs() + d;
                assertNull(w.violation(a, at));
                assertNull(w.violation(t, at));
                if (t.factor().bounded()) {
                    // the band's edges follow the slope ranges, the all-links one inside the tree's: to 2 ps at the
                    // anchor, and away from it to the rounding of the growth rates (doubles): 2^-50 per ps, and to
                    // the rounding up of the all-links bound's own growth (Bounds: a relative 2^-48 of it)
                    double rates = 2 + Math.ceil(Math.abs((double) d) * 1000 * 0x1p-50);
                    BigDecimal slackUp =
                            BigDecimal.valueOf(rates + roundingUp(a.factor().upAtPs(at) - a.factor().upPs()));
                    BigDecimal slackDown =
                            BigDecimal.valueOf(rates + roundingUp(a.factor().downAtPs(at) - a.factor().downPs()));
                    assertTrue(edge(a, at, true).compareTo(edge(t, at, true).add(slackUp)) <= 0
                            && edge(a, at, false).compareTo(edge(t, at, false).subtract(slackDown)) >= 0,
                            a + " leaves " + t + " at " + at + " by more than " + slackUp + "/" + slackDown + " ps");
                }
            }
        }
    }

    /**
     * The evaluation depends on the named state alone: the same links given in another order (other internal ids,
     * as a stream rebuilt from its store has them) give the same factors bit for bit.
     */
    @Property(tries = 60)
    void theSameLinksInAnyOrderGiveTheSameFactors(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int nodes,
            @ForAll @IntRange(min = 0, max = 20) int extraLinks) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, true, 200, 40, 5_000_000_000L, 50_000);
        w.feedAll();
        List<LinkEstimate> links = w.estimates();
        NetworkSync first = new NetworkSync(NetworkOptions.DEFAULT);
        links.forEach(first::update);
        first.drain();
        List<LinkEstimate> shuffled = new ArrayList<>(links);
        java.util.Collections.shuffle(shuffled, r);
        NetworkSync second = new NetworkSync(NetworkOptions.DEFAULT);
        List<String> names = new ArrayList<>(w.names);
        java.util.Collections.shuffle(names, r);
        names.forEach(second::addNode);
        shuffled.forEach(second::update);
        second.drain();
        assertEquals(first.evaluate(null), second.evaluate(null));
    }

    /**
     * What rounding a grown bound up adds to it at most, in ps: a relative 2^-48 of its growth (taken twice, for the
     * product's own rounding) and the last ps.
     */
    private static double roundingUp(long growthPs) {
        return Math.ceil(growthPs * 0x1p-47) + 1;
    }

    /** The upper or lower edge of a factor's band at local time t, in ps of the reference clock. */
    private static BigDecimal edge(AnchoredFactor f, long t, boolean upper) {
        BigDecimal value = f.factor().toReference().slope().toBigDecimal().multiply(BigDecimal.valueOf(t))
                .add(f.factor().toReference().offset().toBigDecimal()).movePointRight(3);
        return upper ? value.add(BigDecimal.valueOf(f.factor().upAtPs(t)))
                : value.subtract(BigDecimal.valueOf(f.factor().downAtPs(t)));
    }

    /** Both methods agree on a tree: there is no other path. */
    @Property(tries = 50)
    void onATreeBothMethodsGiveTheSameInterval(@ForAll long seed, @ForAll @IntRange(min = 2, max = 10) int nodes) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1, true, 100, 50, 10_000_000_000L, 20_000);
        w.feedAll();
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        w.estimates().forEach(net::update);
        net.drain();
        List<AnchoredFactor> all = net.evaluate(NetworkMethod.ALL_LINKS, WEIGHTING, null).factors();
        List<AnchoredFactor> tree = net.evaluate(NetworkMethod.TREE, null, null).factors();
        for (int i = 0; i < all.size(); i++) {
            AnchoredFactor a = all.get(i);
            AnchoredFactor t = tree.get(i);
            assertTrue(a.factor().bounded(), a::toString);
            assertEquals((double) t.factor().upPs() + t.factor().downPs(),
                    (double) a.factor().upPs() + a.factor().downPs(), 2, a + " vs " + t);
        }
    }

    /**
     * A ring of links of which one carries a clock step (b's timestamps 2 ms late on that link only): the cycle
     * through it is negative, that link is excluded and reported, and every bound still holds the truth.
     */
    @Test
    void aWrongLinkOnACycleIsExcludedAndReported() {
        Random r = new Random(7);
        LinearNetwork w = new LinearNetwork(r, 6, 0, true, 50, 0, 1, 1);
        String[] ring = {"n00", "n01", "n02", "n03", "n04", "n05"};
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        LinkKey bad = LinkKey.between("n02", "n03");
        for (int i = 0; i < ring.length; i++) {
            for (int j = i + 1; j < ring.length; j += 2) {
                LinkKey key = LinkKey.between(ring[i], ring[j]);
                ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
                long step = key.equals(bad) ? 2_000_000 : 0;
                for (int k = 0; k < 200; k++) {
                    long t = LinearNetwork.EPOCH + k * 50_000_000L + r.nextInt(1_000_000);
                    long delay = 20_000 + r.nextInt(40_000);
                    link.addAtoB(w.read(key.a(), t), w.read(key.b(), t + delay) + step);
                    link.addBtoA(w.read(key.b(), t) + step, w.read(key.a(), t + delay));
                }
                links.put(key, link);
            }
        }
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        links.forEach((k, l) -> net.update(LinkEstimate.of(k, l)));
        net.drain();
        NetworkSync.Evaluation e = net.evaluate(NetworkMethod.ALL_LINKS, WEIGHTING, null);
        assertEquals(List.of(bad), e.excluded());
        for (AnchoredFactor f : e.factors()) {
            assertTrue(f.factor().bounded(), f::toString);
            assertNull(w.violation(f, f.factor().anchorNs()));
        }
    }

    /** A component of one node, and nodes without any link: the identity, no growth. */
    @Test
    void aLoneNodeIsItsOwnReference() {
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        net.addNode("x");
        net.drain();
        List<AnchoredFactor> f = net.evaluate(NetworkMethod.ALL_LINKS, WEIGHTING, null).factors();
        assertEquals(1, f.size());
        assertEquals("x", f.get(0).reference());
        assertEquals(0, f.get(0).factor().upPs());
        assertEquals(0, f.get(0).factor().growthAbove());
        assertEquals(0, f.get(0).factor().growthBelow());
        assertEquals(ClockMap.IDENTITY, f.get(0).factor().toReference());
    }
}
