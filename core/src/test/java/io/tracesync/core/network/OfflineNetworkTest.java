package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The from-scratch network answer: hand-computed trees, references and factors, then properties on random small
 * graphs that characterize it independently of how it is computed: a spanning forest of the participating links
 * with the cycle property (hence the unique minimum one under {@link EdgeOrder}), references that minimize the
 * total weighted path cost ([Jabbarifar 2013, §4.5.1, Lemma 1], by brute force), and factors equal to the exact
 * composition of the links' maps along the tree path, with bounds that cover the hops' bounds.
 */
class OfflineNetworkTest {

    private static final MathContext EXACT = new MathContext(80);

    // ---------------------------------------------------------------- helpers

    static ClockMap map(double slope, double offset) {
        return ClockMap.of(DoubleDouble.of(slope), DoubleDouble.of(offset));
    }

    /** An ACCURATE link x~y (either order) with a near-identity map, the given slope accuracy and 1000 ps bounds. */
    static LinkEstimate link(String x, String y, double accuracy) {
        return link(x, y, accuracy, 1000, 1000);
    }

    static LinkEstimate link(String x, String y, double accuracy, long up, long down) {
        return LinkEstimate.accurate(LinkKey.between(x, y), map(1, 0), accuracy, 1 - 1e-6, 1 + 1e-6, 0, up,
                down);
    }

    static LinkEstimate approximate(String x, String y) {
        return new LinkEstimate(LinkKey.between(x, y), LinkQuality.APPROXIMATE, map(1, 0), Double.NaN, Double.NaN,
                Double.NaN, 0, 1000, LinkEstimate.UNBOUNDED);
    }

    static OfflineNetwork compute(NetworkOptions options, List<String> nodes, LinkEstimate... links) {
        return OfflineNetwork.compute(nodes, List.of(links), options);
    }

    static OfflineNetwork compute(LinkEstimate... links) {
        return compute(NetworkOptions.DEFAULT, List.of(), links);
    }

    static TreeEdge edge(String a, String b, double w) {
        return new TreeEdge(a, b, w);
    }

    static Factor factor(OfflineNetwork net, String node) {
        NodeFactor f = net.factors().get(node);
        assertEquals(node, f.node());
        return f.factor();
    }

    static void assertReferences(OfflineNetwork net, String reference, String... nodes) {
        for (String n : nodes) {
            assertEquals(reference, net.referenceOf(n), n);
            assertEquals(reference, net.factors().get(n).reference(), n);
        }
        assertEquals(Factor.REFERENCE, factor(net, reference));
    }

    // ---------------------------------------------------------------- hand-computed cases

    @Test
    void pathOfThreeHasItsMiddleAsReference() {
        OfflineNetwork net = compute(link("a", "m", 1e-9), link("m", "z", 2e-9));
        assertEquals(List.of(edge("a", "m", 1e-9), edge("m", "z", 2e-9)), net.tree());
        assertReferences(net, "m", "a", "m", "z");
        assertEquals(List.of("a", "m", "z"), new ArrayList<>(net.factors().keySet()));
        assertTrue(factor(net, "a").bounded());
    }

    @Test
    void starHasItsCentreAsReference() {
        OfflineNetwork net = compute(link("s", "a", 3e-9), link("s", "b", 1e-9), link("s", "c", 2e-9),
                link("s", "t", 1e-9));
        assertEquals(List.of(edge("a", "s", 3e-9), edge("b", "s", 1e-9), edge("c", "s", 2e-9),
                edge("s", "t", 1e-9)), net.tree());
        assertReferences(net, "s", "a", "b", "c", "s", "t");
    }

    @Test
    void everyComponentHasItsOwnReferenceAndIsolatedNodesAreTheirOwn() {
        // q only has a failed link, iso is only listed: both are one-node trees.
        OfflineNetwork net = compute(NetworkOptions.DEFAULT, List.of("iso", "b"),
                link("a", "b", 1e-9), link("b", "c", 1e-9), link("x", "y", 5e-9),
                LinkEstimate.unusable(LinkKey.between("a", "q"), LinkQuality.FAIL),
                LinkEstimate.unusable(LinkKey.between("c", "x"), LinkQuality.INCOMPLETE));
        assertEquals(List.of(edge("a", "b", 1e-9), edge("b", "c", 1e-9), edge("x", "y", 5e-9)), net.tree());
        assertReferences(net, "b", "a", "b", "c");
        assertReferences(net, "x", "x", "y");
        assertReferences(net, "iso", "iso");
        assertReferences(net, "q", "q");
        assertEquals(List.of("a", "b", "c", "iso", "q", "x", "y"), new ArrayList<>(net.factors().keySet()));
        assertEquals(new NodeFactor("iso", "iso", Factor.REFERENCE), net.factors().get("iso"));
    }

    @Test
    void emptyNetworkHasNothing() {
        OfflineNetwork net = compute();
        assertEquals(List.of(), net.tree());
        assertEquals(Map.of(), net.factors());
        assertThrows(IllegalArgumentException.class, () -> net.referenceOf("a"));
    }

    @Test
    void equalWeightsAreBrokenByTheNames() {
        // Triangle: p~q < p~r < q~r (first names decide between p~r and q~r): q~r closes the cycle.
        OfflineNetwork triangle = compute(link("q", "r", 1e-9), link("p", "r", 1e-9), link("p", "q", 1e-9));
        assertEquals(List.of(edge("p", "q", 1e-9), edge("p", "r", 1e-9)), triangle.tree());
        // Four-cycle a-c-b-d-a: a~c < a~d < b~c < b~d; the second names decide the heaviest, b~d.
        OfflineNetwork square = compute(link("b", "d", 1e-9), link("b", "c", 1e-9), link("a", "d", 1e-9),
                link("a", "c", 1e-9));
        assertEquals(List.of(edge("a", "c", 1e-9), edge("a", "d", 1e-9), edge("b", "c", 1e-9)), square.tree());
        // A lighter link beats any name: with b~d lighter, b~c (now the heaviest) goes instead.
        OfflineNetwork lighter = compute(link("b", "d", 0.5e-9), link("b", "c", 1e-9), link("a", "d", 1e-9),
                link("a", "c", 1e-9));
        assertEquals(List.of(edge("a", "c", 1e-9), edge("a", "d", 1e-9), edge("b", "d", 0.5e-9)),
                lighter.tree());
    }

    @Test
    void twoCentroidsGiveTheSmallerName() {
        NetworkOptions centroid = NetworkOptions.DEFAULT.withReferenceRule(ReferenceRule.CENTROID);
        // Path z - m - b - y: m and b both leave halves of 2; b is the smaller name.
        OfflineNetwork path = compute(centroid, List.of(), link("z", "m", 1e-9), link("m", "b", 1e-9),
                link("b", "y", 1e-9));
        assertReferences(path, "b", "z", "m", "b", "y");
        // Path a - n - m - z: from a, n comes before m, but m is the smaller name.
        OfflineNetwork fromA = compute(centroid, List.of(), link("a", "n", 1e-9), link("n", "m", 1e-9),
                link("m", "z", 1e-9));
        assertReferences(fromA, "m", "a", "n", "m", "z");
        OfflineNetwork pair = compute(centroid, List.of(), link("n2", "n1", 1e-9));
        assertReferences(pair, "n1", "n1", "n2");
        // Heavy weights on one side do not move the centroid (Lemma 1 holds whatever the weights).
        OfflineNetwork heavy = compute(centroid, List.of(), link("z", "m", 1e-3), link("m", "b", 1e-9),
                link("b", "y", 1e-9));
        assertReferences(heavy, "b", "z", "m", "b", "y");
        // Leaves a and b on z, then the path z - c - d - e - f: c leaves parts of 3 and 3, z one of 4.
        LinkEstimate[] broom = {link("z", "a", 1e-9), link("z", "b", 1e-9), link("z", "c", 1e-9),
            link("c", "d", 1e-9), link("d", "e", 1e-9), link("e", "f", 1e-9)};
        assertReferences(compute(centroid, List.of(), broom), "c", "a", "b", "c", "d", "e", "f", "z");
    }

    @Test
    void theNodeWithTheMostLinksIsTheReferenceByDefault() {
        // The broom above: z has three links, every other node at most two.
        List<LinkEstimate> broom = new ArrayList<>(List.of(link("z", "a", 1e-9), link("z", "b", 1e-9),
                link("z", "c", 1e-9), link("c", "d", 1e-9), link("d", "e", 1e-9), link("e", "f", 1e-9)));
        assertReferences(compute(broom.toArray(LinkEstimate[]::new)), "z", "a", "b", "c", "d", "e", "f", "z");
        // Links outside the tree count: d gets two more (heavier than the tree's path between their ends), so four.
        broom.add(link("d", "f", 5e-9));
        broom.add(link("d", "b", 5e-9));
        OfflineNetwork more = compute(broom.toArray(LinkEstimate[]::new));
        assertEquals(6, more.tree().size());
        assertReferences(more, "d", "a", "b", "c", "d", "e", "f", "z");
        // Links that do not take part do not: a failed link and an approximate one give z no fifth.
        broom.add(LinkEstimate.unusable(new LinkKey("a", "c"), LinkQuality.FAIL));
        broom.add(new LinkEstimate(new LinkKey("e", "z"), LinkQuality.APPROXIMATE, map(1, 0), Double.NaN,
                Double.NaN, Double.NaN, 0, 1000, LinkEstimate.UNBOUNDED));
        broom.add(link("f", "z", 5e-9));
        // z and d both have four now: d is the smaller name.
        assertReferences(compute(broom.toArray(LinkEstimate[]::new)), "d", "a", "b", "c", "d", "e", "f", "z");
    }

    @Test
    void aPinnedReferenceIsUsedOnlyInItsOwnTree() {
        LinkEstimate am = link("a", "m", 1e-9);
        LinkEstimate mz = link("m", "z", 1e-9);
        LinkEstimate xy = link("x", "y", 1e-9);
        NetworkOptions pinZ = NetworkOptions.DEFAULT.withPinnedReference("z");
        OfflineNetwork pinned = compute(pinZ, List.of(), am, mz, xy);
        assertReferences(pinned, "z", "a", "m", "z");
        assertReferences(pinned, "x", "x", "y");
        // m reaches z forward (m is the link's first end), a through m.
        Factor m = Factor.REFERENCE.child(Hop.forward(mz));
        assertEquals(m, factor(pinned, "m"));
        assertEquals(m.child(Hop.forward(am)), factor(pinned, "a"));

        OfflineNetwork absent = compute(NetworkOptions.DEFAULT.withPinnedReference("nowhere"), List.of(), am, mz, xy);
        assertReferences(absent, "m", "a", "m", "z");
        assertFalse(absent.factors().containsKey("nowhere"));
        OfflineNetwork other = compute(NetworkOptions.DEFAULT.withPinnedReference("y"), List.of(), am, mz, xy);
        assertReferences(other, "m", "a", "m", "z");
        assertReferences(other, "y", "x", "y");
        // A pinned node listed without links is its own one-node tree.
        OfflineNetwork lonely = compute(NetworkOptions.DEFAULT.withPinnedReference("k"), List.of("k"), am, mz);
        assertReferences(lonely, "k", "k");
        assertReferences(lonely, "m", "a", "m", "z");
    }

    @Test
    void approximateLinksTakePartOnlyWhenIncludedAndLeaveBoundsOpen() {
        LinkEstimate ab = link("a", "b", 1e-9);
        LinkEstimate bc = link("b", "c", 2e-9);
        LinkEstimate ac = approximate("a", "c");
        LinkEstimate cd = approximate("c", "d");

        OfflineNetwork excluded = compute(NetworkOptions.DEFAULT, List.of(), ab, bc, ac, cd);
        assertEquals(List.of(edge("a", "b", 1e-9), edge("b", "c", 2e-9)), excluded.tree());
        assertReferences(excluded, "b", "a", "b", "c");
        assertReferences(excluded, "d", "d");

        // At +infinity they only connect what accurate links cannot: d, through c.
        OfflineNetwork last = compute(NetworkOptions.DEFAULT.withApproximate(Double.POSITIVE_INFINITY), List.of(),
                ab, bc, ac, cd);
        double inf = Double.POSITIVE_INFINITY;
        assertEquals(List.of(edge("a", "b", 1e-9), edge("b", "c", 2e-9), edge("c", "d", inf)), last.tree());
        assertReferences(last, "c", "a", "b", "c", "d"); // c has three links taking part, a~c among them
        assertTrue(factor(last, "a").bounded());
        assertTrue(factor(last, "c").bounded());
        assertFalse(factor(last, "d").bounded());
        assertEquals(LinkEstimate.UNBOUNDED, factor(last, "d").upPs());
        assertEquals(LinkEstimate.UNBOUNDED, factor(last, "d").downPs());

        // Lighter than b~c, a~c replaces it: path b-a-c-d, reference c; a and b now reach it over a~c, unbounded.
        OfflineNetwork light = compute(NetworkOptions.DEFAULT.withApproximate(1.5e-9), List.of(), ab, bc, ac, cd);
        assertEquals(List.of(edge("a", "b", 1e-9), edge("a", "c", 1.5e-9), edge("c", "d", 1.5e-9)), light.tree());
        assertReferences(light, "c", "a", "b", "c", "d");
        assertFalse(factor(light, "a").bounded());
        assertFalse(factor(light, "b").bounded());
        assertFalse(factor(light, "d").bounded());
        assertEquals(null, factor(light, "d").boundNs());
        // Its centroid a reaches b over the accurate a~b.
        OfflineNetwork centroid = compute(NetworkOptions.DEFAULT.withApproximate(1.5e-9)
                .withReferenceRule(ReferenceRule.CENTROID), List.of(), ab, bc, ac, cd);
        assertReferences(centroid, "a", "a", "b", "c", "d");
        assertTrue(factor(centroid, "b").bounded());
        assertFalse(factor(centroid, "c").bounded());
    }

    @Test
    void boundWidthRanksLinksByTheirWidestBound() {
        // Slope accuracy prefers x~y and y~z; bound width prefers y~z (1000) and x~z (2000) over x~y (5000).
        LinkEstimate xy = link("x", "y", 1e-9, 5000, 10);
        LinkEstimate yz = link("y", "z", 2e-9, 10, 1000);
        LinkEstimate xz = link("x", "z", 3e-9, 2000, 2000);
        NetworkOptions centroid = NetworkOptions.DEFAULT.withReferenceRule(ReferenceRule.CENTROID);
        OfflineNetwork accuracy = compute(centroid, List.of(), xy, yz, xz);
        assertEquals(List.of(edge("x", "y", 1e-9), edge("y", "z", 2e-9)), accuracy.tree());
        assertReferences(accuracy, "y", "x", "y", "z");
        OfflineNetwork width = compute(centroid.withWeight(LinkWeight.BOUND_WIDTH), List.of(),
                xy, yz, xz);
        assertEquals(List.of(edge("x", "z", 2000), edge("y", "z", 1000)), width.tree());
        assertReferences(width, "z", "x", "y", "z");
    }

    /**
     * Path a - b - c - d (reference b, the smaller of the centroids b and c), each factor worked out by hand.
     * A child's hop is forward (the link's map) when the child is the link's first end, else backward (the inverse
     * map, the bounds swapped and divided by minSlope); it then passes through the parent's map, so its bounds
     * are scaled by the parent's slope. Every scaling rounds up past the exact product (a safety factor of
     * 1 + 2^-48, and the slope rounded up), which adds 1 ps where the exact product is an integer.
     */
    @Test
    void handComputedFactors() {
        LinkEstimate ab = LinkEstimate.accurate(new LinkKey("a", "b"), map(1, 1000), 1e-9, 0.999, 1.001, 0, 2000,
                3000);
        LinkEstimate bc = LinkEstimate.accurate(new LinkKey("b", "c"), map(2, 500), 2e-9, 1.6, 2.4, 0, 800, 1600);
        LinkEstimate cd = LinkEstimate.accurate(new LinkKey("c", "d"), map(1, -4000), 3e-9, 0.5, 1.5, 0, 100, 300);
        OfflineNetwork net = compute(cd, ab, bc);
        assertReferences(net, "b", "a", "b", "c", "d");

        // a → b forward: t + 1000; bounds 2000 and 3000, through b's identity map.
        Factor a = factor(net, "a");
        assertEquals(map(1, 1000), a.toReference());
        assertEquals(DoubleDouble.of(1000), a.toReference().apply(0));
        assertEquals(2001, a.upPs()); // exactly 2000
        assertEquals(3001, a.downPs()); // exactly 3000

        // c → b backward through b → c (2t + 500): t/2 - 250. Up is b~c's down / 1.6 = 1000, down is its up / 1.6
        // = 500, each rounded up once in the hop and once through b's map.
        Factor c = factor(net, "c");
        assertEquals(map(0.5, -250), c.toReference());
        assertEquals(1002, c.upPs()); // exactly 1000
        assertEquals(502, c.downPs()); // exactly 500

        // d → c backward through c → d (t - 4000): t + 4000, then c's map: (t + 4000)/2 - 250 = t/2 + 1750.
        // The hop's up is c~d's down / 0.5 = 600 (601 rounded up), its down 100 / 0.5 = 200 (201); through c's
        // slope 1/2 they add 300.5 → 301 and 100.5 → 101 to c's 1002 and 502.
        Factor d = factor(net, "d");
        assertEquals(map(0.5, 1750), d.toReference());
        assertEquals(DoubleDouble.of(2250), d.toReference().apply(1000));
        assertEquals(1303, d.upPs()); // exactly 1000 + 300
        assertEquals(603, d.downPs()); // exactly 500 + 100
        assertEquals(new BigDecimal("1.303"), d.boundNs());
    }

    @Test
    void twoEstimatesOfOneLinkAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> compute(link("a", "b", 1e-9), link("b", "c", 1e-9), link("b", "a", 2e-9)));
        assertThrows(IllegalArgumentException.class,
                () -> compute(link("a", "b", 1e-9), LinkEstimate.unusable(new LinkKey("a", "b"), LinkQuality.FAIL)));
    }

    @Test
    void aLongPathNeedsNoRecursion() {
        int n = 100_000;
        List<LinkEstimate> links = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            links.add(link(name(i - 1), name(i), 1e-9));
        }
        Collections.reverse(links);
        OfflineNetwork net = OfflineNetwork.compute(List.of(), links, NetworkOptions.DEFAULT);
        assertEquals(n - 1, net.tree().size());
        // Every inner node has two links; names sort like the indices.
        String reference = name(1);
        assertEquals(reference, net.referenceOf(name(0)));
        assertEquals(reference, net.referenceOf(name(n - 1)));
        assertEquals(Factor.REFERENCE, factor(net, reference));
        // Each hop adds at least its 1000 ps.
        assertTrue(factor(net, name(0)).upPs() >= 1000L);
        assertTrue(factor(net, name(n - 1)).downPs() >= 1000L * (n - 2));
        OfflineNetwork centroid = OfflineNetwork.compute(List.of(), links,
                NetworkOptions.DEFAULT.withReferenceRule(ReferenceRule.CENTROID));
        assertEquals(name(n / 2 - 1), centroid.referenceOf(name(n - 1))); // of the centroids n/2 - 1 and n/2
    }

    private static String name(int i) {
        return String.format("n%06d", i);
    }

    // ---------------------------------------------------------------- random networks

    /** A random network of a few nodes: weights, bounds and names from small sets, so ties are frequent. */
    static final class RandomNetwork {
        final Random random;
        final List<String> names = new ArrayList<>();
        final List<String> listed = new ArrayList<>();
        final List<LinkEstimate> links = new ArrayList<>();
        final NetworkOptions options;
        final Set<String> allNodes = new TreeSet<>();
        final Map<LinkKey, LinkEstimate> byKey = new HashMap<>();

        /** positive: every weight finite and &gt; 0, and no pinned reference (for Lemma 1). */
        RandomNetwork(long seed, int n, boolean positive) {
            random = new Random(seed);
            for (int i = 0; i < n; i++) {
                // Short random prefixes, unique by the suffix after '_': name order is unrelated to i.
                names.add(Integer.toString(random.nextInt(36 * 36), 36) + "_" + i);
            }
            double density = new double[] {0.15, 0.4, 0.8}[random.nextInt(3)];
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (random.nextDouble() < density) {
                        LinkEstimate e = estimate(LinkKey.between(names.get(i), names.get(j)));
                        links.add(e);
                        byKey.put(e.key(), e);
                        allNodes.add(e.key().a());
                        allNodes.add(e.key().b());
                    }
                }
            }
            for (String name : names) {
                if (random.nextBoolean()) {
                    listed.add(name);
                    allNodes.add(name);
                }
            }
            Collections.shuffle(links, random);
            NetworkOptions o = random.nextBoolean() ? NetworkOptions.DEFAULT
                    : NetworkOptions.DEFAULT.withWeight(LinkWeight.BOUND_WIDTH);
            o = o.withReferenceRule(ReferenceRule.values()[random.nextInt(ReferenceRule.values().length)]);
            int approximate = random.nextInt(4);
            if (approximate == 1) {
                o = o.withApproximate(2e-9); // ties with accurate links
            } else if (approximate == 2) {
                o = o.withApproximate(4e-9);
            } else if (approximate == 3 && !positive) {
                o = o.withApproximate(Double.POSITIVE_INFINITY);
            }
            if (!positive) {
                int pin = random.nextInt(3);
                if (pin == 1) {
                    o = o.withPinnedReference(names.get(random.nextInt(n)));
                } else if (pin == 2) {
                    o = o.withPinnedReference("absent");
                }
            }
            options = o;
        }

        private LinkEstimate estimate(LinkKey key) {
            int q = random.nextInt(10);
            double slope = 1 + (random.nextDouble() - 0.5) * 2e-4;
            ClockMap map = map(slope, (random.nextDouble() - 0.5) * 2e12);
            long up = bound();
            long down = bound();
            if (q == 0) {
                LinkQuality[] unusable = {LinkQuality.ABSENT, LinkQuality.INCOMPLETE, LinkQuality.FAIL};
                return LinkEstimate.unusable(key, unusable[random.nextInt(3)]);
            }
            if (q == 1) {
                return new LinkEstimate(key, LinkQuality.APPROXIMATE, map, Double.NaN, Double.NaN, Double.NaN, 0,
                        up,
                        LinkEstimate.UNBOUNDED);
            }
            double accuracy = new double[] {1e-9, 2e-9, 3e-9}[random.nextInt(3)];
            // Now and then no usable slope bound: the backward hop is unbounded, the forward one is not.
            double minSlope = random.nextInt(20) == 0 ? Double.NaN : slope * (1 - random.nextDouble() * 1e-6);
            return LinkEstimate.accurate(key, map, accuracy, minSlope, map.slope().hi() + 1e-3, 0, up, down);
        }

        private long bound() {
            return switch (random.nextInt(4)) {
                case 0 -> 1000;
                case 1 -> 2000;
                case 2 -> 1_000_000_000;
                default -> random.nextLong(1_000_000_001L);
            };
        }

        OfflineNetwork compute() {
            return OfflineNetwork.compute(listed, links, options);
        }

        boolean participates(LinkEstimate e) {
            return !Double.isNaN(options.weightOf(e));
        }
    }

    /** The forest as adjacency: for every node, its tree edges. */
    static Map<String, List<TreeEdge>> adjacency(OfflineNetwork net) {
        Map<String, List<TreeEdge>> adj = new HashMap<>();
        for (String v : net.factors().keySet()) {
            adj.put(v, new ArrayList<>());
        }
        for (TreeEdge e : net.tree()) {
            adj.get(e.a()).add(e);
            adj.get(e.b()).add(e);
        }
        return adj;
    }

    static String other(TreeEdge e, String v) {
        return e.a().equals(v) ? e.b() : e.a();
    }

    /** The tree edges from v to u, in order from v, or null if they are not connected in the forest. */
    static List<TreeEdge> treePath(Map<String, List<TreeEdge>> adj, String v, String u) {
        Map<String, TreeEdge> via = new HashMap<>();
        Set<String> seen = new HashSet<>(Set.of(u));
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(u));
        while (!queue.isEmpty()) {
            String x = queue.poll();
            for (TreeEdge e : adj.get(x)) {
                String y = other(e, x);
                if (seen.add(y)) {
                    via.put(y, e);
                    queue.add(y);
                }
            }
        }
        if (!seen.contains(v)) {
            return null;
        }
        List<TreeEdge> path = new ArrayList<>();
        for (String x = v; !x.equals(u); x = other(via.get(x), x)) {
            path.add(via.get(x));
        }
        return path;
    }

    /** Components of a graph given as edges over the given vertices, as a vertex → component number map. */
    static Map<String, Integer> components(Set<String> vertices, List<String[]> edges) {
        Map<String, Set<String>> adj = new HashMap<>();
        vertices.forEach(v -> adj.put(v, new HashSet<>()));
        for (String[] e : edges) {
            adj.get(e[0]).add(e[1]);
            adj.get(e[1]).add(e[0]);
        }
        Map<String, Integer> comp = new HashMap<>();
        int c = 0;
        for (String s : vertices) {
            if (comp.containsKey(s)) {
                continue;
            }
            ArrayDeque<String> stack = new ArrayDeque<>(List.of(s));
            comp.put(s, c);
            while (!stack.isEmpty()) {
                for (String y : adj.get(stack.pop())) {
                    if (comp.putIfAbsent(y, c) == null) {
                        stack.push(y);
                    }
                }
            }
            c++;
        }
        return comp;
    }

    // ---------------------------------------------------------------- properties

    /** a) A spanning forest of the participating links, independent of the input order. */
    @Property(tries = 200)
    void theTreeIsASpanningForestOfTheParticipatingLinks(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 12) int n) {
        RandomNetwork w = new RandomNetwork(seed, n, false);
        OfflineNetwork net = w.compute();
        assertEquals(w.allNodes, net.factors().keySet());
        for (Map.Entry<String, NodeFactor> f : net.factors().entrySet()) {
            assertEquals(f.getKey(), f.getValue().node());
        }

        List<TreeEdge> sorted = new ArrayList<>(net.tree());
        Collections.sort(sorted);
        assertEquals(sorted, net.tree());
        List<String[]> treeEdges = new ArrayList<>();
        Map<String, String> set = new HashMap<>();
        w.allNodes.forEach(v -> set.put(v, v));
        for (TreeEdge e : net.tree()) {
            LinkEstimate l = w.byKey.get(new LinkKey(e.a(), e.b()));
            assertTrue(l != null && w.participates(l), "not a participating link: " + e);
            assertEquals(w.options.weightOf(l), e.weight());
            // No cycle: every tree edge joins two parts not yet joined.
            String ra = root(set, e.a());
            String rb = root(set, e.b());
            assertTrue(!ra.equals(rb), "cycle through " + e);
            set.put(ra, rb);
            treeEdges.add(new String[] {e.a(), e.b()});
        }
        List<String[]> graphEdges = new ArrayList<>();
        for (LinkEstimate l : w.links) {
            if (w.participates(l)) {
                graphEdges.add(new String[] {l.key().a(), l.key().b()});
            }
        }
        Map<String, Integer> inForest = components(w.allNodes, treeEdges);
        Map<String, Integer> inGraph = components(w.allNodes, graphEdges);
        for (String u : w.allNodes) {
            for (String v : w.allNodes) {
                boolean connected = inGraph.get(u).equals(inGraph.get(v));
                assertEquals(connected, inForest.get(u).equals(inForest.get(v)), u + " " + v);
                assertEquals(connected, net.referenceOf(u).equals(net.referenceOf(v)), u + " " + v);
            }
            String r = net.referenceOf(u);
            assertEquals(inForest.get(u), inForest.get(r), "reference outside the tree of " + u);
            assertEquals(Factor.REFERENCE, net.factors().get(r).factor());
            String pinned = w.options.pinnedReference();
            if (pinned != null && inForest.containsKey(pinned) && inForest.get(pinned).equals(inForest.get(u))) {
                assertEquals(pinned, r);
            }
        }

        // The same answer whatever the order of the input.
        List<LinkEstimate> shuffled = new ArrayList<>(w.links);
        Collections.shuffle(shuffled, new Random(seed + 1));
        List<String> listed = new ArrayList<>(w.listed);
        Collections.reverse(listed);
        OfflineNetwork again = OfflineNetwork.compute(listed, shuffled, w.options);
        assertEquals(net.tree(), again.tree());
        assertEquals(net.factors(), again.factors());
    }

    private static String root(Map<String, String> set, String v) {
        while (!set.get(v).equals(v)) {
            v = set.get(v);
        }
        return v;
    }

    /** b) Cycle property: every participating link outside the forest is the heaviest of the cycle it closes. */
    @Property(tries = 200)
    void everyOtherLinkIsTheHeaviestOnItsCycle(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int n) {
        RandomNetwork w = new RandomNetwork(seed, n, false);
        OfflineNetwork net = w.compute();
        Set<TreeEdge> tree = new HashSet<>(net.tree());
        Map<String, List<TreeEdge>> adj = adjacency(net);
        for (LinkEstimate l : w.links) {
            if (!w.participates(l)) {
                continue;
            }
            double wl = w.options.weightOf(l);
            String a = l.key().a();
            String b = l.key().b();
            if (tree.contains(new TreeEdge(a, b, wl))) {
                continue;
            }
            List<TreeEdge> path = treePath(adj, a, b);
            assertTrue(path != null && !path.isEmpty(), "ends of " + l.key() + " not connected");
            for (TreeEdge e : path) {
                assertTrue(EdgeOrder.compare(e.weight(), e.a(), e.b(), wl, a, b) < 0,
                        e + " is not lighter than " + l.key() + " (" + wl + ")");
            }
        }
    }

    /**
     * c) Lemma 1 by brute force: with positive weights the vertices of least total weighted path cost to the rest
     * of their tree are exactly the centroids; the reference is the smallest-named of them, or by default the
     * smallest-named of the nodes with the most participating links.
     */
    @Property(tries = 200)
    void referencesMinimizeTheTotalPathCost(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int n) {
        RandomNetwork w = new RandomNetwork(seed, n, true);
        OfflineNetwork net = w.compute();
        Map<String, List<TreeEdge>> adj = adjacency(net);
        Map<String, Set<String>> trees = new TreeMap<>();
        for (String v : net.factors().keySet()) {
            trees.computeIfAbsent(net.referenceOf(v), k -> new TreeSet<>()).add(v);
        }
        for (Set<String> tree : trees.values()) {
            int size = tree.size();
            Map<String, BigDecimal> cost = new HashMap<>();
            Set<String> centroids = new TreeSet<>();
            for (String x : tree) {
                BigDecimal sum = BigDecimal.ZERO;
                for (String y : tree) {
                    for (TreeEdge e : treePath(adj, x, y)) {
                        assertTrue(e.weight() > 0 && e.weight() < Double.POSITIVE_INFINITY);
                        sum = sum.add(new BigDecimal(e.weight()));
                    }
                }
                cost.put(x, sum);
                // Centroid: every part left after removing x holds at most half the tree.
                int largest = 0;
                for (TreeEdge e : adj.get(x)) {
                    largest = Math.max(largest, sideSize(adj, other(e, x), x));
                }
                if (2 * largest <= size) {
                    centroids.add(x);
                }
            }
            BigDecimal least = Collections.min(cost.values());
            Set<String> minimizers = new TreeSet<>();
            cost.forEach((x, c) -> {
                if (c.compareTo(least) == 0) {
                    minimizers.add(x);
                }
            });
            assertEquals(centroids, minimizers);
            assertTrue(minimizers.size() <= 2);
            String reference = minimizers.iterator().next();
            if (w.options.referenceRule() == ReferenceRule.MOST_LINKS) {
                Map<String, Integer> degree = new HashMap<>();
                w.links.stream().filter(w::participates).forEach(l -> {
                    degree.merge(l.key().a(), 1, Integer::sum);
                    degree.merge(l.key().b(), 1, Integer::sum);
                });
                reference = tree.stream().min(Comparator.comparing((String x) -> -degree.getOrDefault(x, 0))
                        .thenComparing(Comparator.naturalOrder())).orElseThrow();
            }
            for (String v : tree) {
                assertEquals(reference, net.referenceOf(v));
            }
        }
    }

    /** The number of vertices on start's side of the tree edge start~from. */
    private static int sideSize(Map<String, List<TreeEdge>> adj, String start, String from) {
        Set<String> seen = new HashSet<>(Set.of(start, from));
        ArrayDeque<String> stack = new ArrayDeque<>(List.of(start));
        int count = 0;
        while (!stack.isEmpty()) {
            String x = stack.pop();
            count++;
            for (TreeEdge e : adj.get(x)) {
                String y = other(e, x);
                if (seen.add(y)) {
                    stack.push(y);
                }
            }
        }
        return count;
    }

    /**
     * d) Every factor is the exact composition of the links' maps along its tree path (inverted where the path
     * crosses a link from b to a), to 1e-25 relative; its bounds are at least the hops' bounds (swapped and
     * divided by minSlope backward), each carried to the reference through the slope of the maps beyond it, and
     * exceed them by little more than the rounding up; unbounded exactly when a hop is.
     */
    @Property(tries = 200)
    void factorsComposeTheMapsAlongTheTreePath(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int n) {
        RandomNetwork w = new RandomNetwork(seed, n, false);
        OfflineNetwork net = w.compute();
        Map<String, List<TreeEdge>> adj = adjacency(net);
        for (NodeFactor f : net.factors().values()) {
            List<TreeEdge> path = treePath(adj, f.node(), f.reference());
            // From the node towards the reference: (slope, offset) of the map so far and the magnitude of the
            // offset's terms (what double-double errors are relative to).
            BigDecimal slope = BigDecimal.ONE;
            BigDecimal offset = BigDecimal.ZERO;
            BigDecimal magnitude = BigDecimal.ZERO;
            List<BigDecimal[]> hops = new ArrayList<>(); // slope, up, down of each hop; null bounds if open
            String x = f.node();
            for (TreeEdge e : path) {
                LinkEstimate l = w.byKey.get(new LinkKey(e.a(), e.b()));
                BigDecimal s = l.aToB().slope().toBigDecimal();
                BigDecimal o = l.aToB().offset().toBigDecimal();
                boolean forward = x.equals(e.a());
                BigDecimal up = null;
                BigDecimal down = null;
                if (forward) {
                    if (l.quality() == LinkQuality.ACCURATE) {
                        up = BigDecimal.valueOf(l.upPs());
                        down = BigDecimal.valueOf(l.downPs());
                    }
                } else {
                    o = o.negate().divide(s, EXACT);
                    s = BigDecimal.ONE.divide(s, EXACT);
                    if (l.quality() == LinkQuality.ACCURATE && l.minSlope() > 0) {
                        BigDecimal minSlope = new BigDecimal(l.minSlope());
                        up = BigDecimal.valueOf(l.downPs()).divide(minSlope, EXACT);
                        down = BigDecimal.valueOf(l.upPs()).divide(minSlope, EXACT);
                    }
                }
                slope = s.multiply(slope);
                offset = s.multiply(offset).add(o);
                magnitude = s.multiply(magnitude).add(o.abs());
                hops.add(new BigDecimal[] {s, up, down});
                x = other(e, x);
            }
            ClockMap got = f.factor().toReference();
            String at = f.node() + " via " + path;
            assertTrue(relative(got.slope().toBigDecimal().subtract(slope), slope) < 1e-25, at + " slope " + got);
            assertTrue(relative(got.offset().toBigDecimal().subtract(offset), magnitude) < 1e-25 || path.isEmpty(),
                    at + " offset " + got + " vs " + offset);
            if (path.isEmpty()) {
                assertEquals(Factor.REFERENCE, f.factor());
            }

            // The hops' bounds in reference units: each scaled by the slope of the maps after it.
            BigDecimal scale = BigDecimal.ONE;
            BigDecimal up = BigDecimal.ZERO;
            BigDecimal down = BigDecimal.ZERO;
            boolean bounded = true;
            for (int i = hops.size() - 1; i >= 0; i--) {
                BigDecimal[] h = hops.get(i);
                if (h[1] == null) {
                    bounded = false;
                    break;
                }
                up = up.add(h[1].multiply(scale));
                down = down.add(h[2].multiply(scale));
                scale = scale.multiply(h[0]);
            }
            assertEquals(bounded, f.factor().bounded(), at);
            if (bounded) {
                assertCovers(up, f.factor().upPs(), hops.size(), at + " up");
                assertCovers(down, f.factor().downPs(), hops.size(), at + " down");
            } else {
                assertEquals(LinkEstimate.UNBOUNDED, f.factor().upPs(), at);
                assertEquals(LinkEstimate.UNBOUNDED, f.factor().downPs(), at);
            }
        }
    }

    private static double relative(BigDecimal error, BigDecimal scale) {
        return scale.signum() == 0 ? error.abs().doubleValue()
                : error.abs().divide(scale.abs(), MathContext.DECIMAL64).doubleValue();
    }

    /** At least the exact bound, and at most 2 ps per hop (two roundings up) above it. */
    private static void assertCovers(BigDecimal exact, long got, int hops, String at) {
        BigDecimal g = BigDecimal.valueOf(got);
        assertTrue(g.compareTo(exact) >= 0, at + ": " + got + " < " + exact);
        assertTrue(g.compareTo(exact.add(BigDecimal.valueOf(2L * hops + 1))) <= 0, at + ": " + got + " >> " + exact);
    }
}
