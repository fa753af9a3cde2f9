package io.tracesync.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link LinkCutTrees} against brute force on random forests: joins, cuts, weight changes and cycle swaps
 * (the path query without re-rooting, the cut on its path with the sides' sizes, marks and branches, and the
 * link across), one marked vertex per tree as the spanning forest keeps its centroids.
 */
class LinkCutTreesTest {

    /** A tree edge of the model: its ends, weight and the edge node carrying it. */
    private record Edge(int a, int b, double w, int node) {
    }

    private final Map<Integer, Map<Integer, Edge>> adjacent = new HashMap<>();
    private final LinkCutTrees lct = new LinkCutTrees((p1, p2) -> Integer.compare(p1, p2));
    private final List<Integer> vertices = new ArrayList<>();
    private final Set<Integer> marked = new HashSet<>();
    private int nextPayload = 1;

    @Property(tries = 300)
    void agreesWithBruteForce(@ForAll long seed, @ForAll @IntRange(min = 2, max = 30) int size) {
        new LinkCutTreesTest().run(seed, size);
    }

    private void run(long seed, int size) {
        Random random = new Random(seed);
        for (int i = 0; i < 300; i++) {
            if (vertices.size() < 2 || vertices.size() < size && random.nextInt(4) == 0) {
                int v = lct.newVertex();
                vertices.add(v);
                adjacent.put(v, new HashMap<>());
                lct.setMark(v, true);
                marked.add(v);
                continue;
            }
            int u = vertices.get(random.nextInt(vertices.size()));
            int v = vertices.get(random.nextInt(vertices.size()));
            if (u == v) {
                continue;
            }
            // small integers tie often; weights apart by less than a float's precision tie as floats only
            double w = random.nextBoolean() ? random.nextInt(4) : 1 + random.nextInt(4) * 1e-12;
            List<Edge> path = path(u, v);
            if (path == null) {
                join(u, v, w, random);
            } else if (random.nextInt(5) == 0) {
                Edge e = path.get(random.nextInt(path.size()));
                if (random.nextBoolean()) {
                    lct.setWeight(e.node(), w);
                    replace(e, new Edge(e.a(), e.b(), w, e.node()));
                } else {
                    split(e, random);
                }
            } else {
                swap(u, v, w, path, random.nextBoolean());
            }
            int x = vertices.get(random.nextInt(vertices.size()));
            assertEquals(markOf(component(x, null)), lct.treeMarks(x), "tree marks of " + x);
        }
    }

    /** Vertex ids are dense; an edge node goes beside an end whose slot is free, else into any free slot. */
    @Test
    void placesEdgeNodesBesideTheirEnds() {
        LinkCutTrees trees = new LinkCutTrees(Integer::compare);
        assertEquals(List.of(1, 2, 3), List.of(trees.newVertex(), trees.newVertex(), trees.newVertex()));
        int e12 = trees.newEdge(1, 1.0, 1, 2);
        assertEquals(2 * 1 + 1, e12, "beside vertex 1");
        int e13 = trees.newEdge(2, 1.0, 1, 3);
        assertEquals(2 * 3 + 1, e13, "vertex 1's slot taken: beside vertex 3");
        int e23 = trees.newEdge(3, 1.0, 1, 3);
        assertEquals(2 * 2 + 1, e23, "both ends' slots taken: the free one");
        trees.free(e13);
        assertEquals(2 * 3 + 1, trees.newEdge(4, 1.0, 3, 1), "freed slot reused");
        assertEquals(4, trees.capacity(), "one more than the largest vertex id");
    }

    /**
     * Edge slots over many frees and reuses (the list of free slots is rebuilt as it grows): never two live edges
     * in one slot, beside an end whenever one is free, and a slot found as long as edges are fewer than vertices.
     */
    @Property(tries = 50)
    void handsOutEachEdgeSlotOnce(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int size) {
        Random random = new Random(seed);
        LinkCutTrees trees = new LinkCutTrees(Integer::compare);
        for (int i = 0; i < size; i++) {
            trees.newVertex();
        }
        Set<Integer> live = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            if (live.size() == size - 1 || !live.isEmpty() && random.nextBoolean()) {
                int x = new ArrayList<>(live).get(random.nextInt(live.size()));
                trees.free(x);
                live.remove(x);
                continue;
            }
            int a = 1 + random.nextInt(size);
            int b = 1 + random.nextInt(size);
            boolean aFree = !live.contains(2 * a + 1);
            boolean bFree = !live.contains(2 * b + 1);
            int x = trees.newEdge(i, 1.0, a, b);
            assertTrue(live.add(x), "slot " + x + " handed out twice");
            assertEquals(1, x % 2, "an edge slot");
            assertTrue(x <= 2 * size + 1, "a slot of a vertex");
            if (aFree) {
                assertEquals(2 * a + 1, x, "beside a when free");
            } else if (bFree) {
                assertEquals(2 * b + 1, x, "beside b when free, a's taken");
            }
        }
    }

    private void join(int u, int v, double w, Random random) {
        int x = newEdge(w, u, v);
        lct.linkEdge(u, x, v);
        add(new Edge(u, v, w, x));
        // two marks for a moment, as when the spanning forest joins two trees
        assertEquals(2, lct.treeMarks(random.nextBoolean() ? u : v), "marks of the joined tree");
        int dropped = marked(random.nextBoolean() ? component(u, null) : component(v, null));
        lct.setMark(dropped, false);
        marked.remove(dropped);
    }

    private void split(Edge e, Random random) {
        lct.cutEdge(e.a(), e.node(), e.b());
        remove(e);
        Set<Integer> sideA = component(e.a(), null);
        Set<Integer> sideB = component(e.b(), null);
        assertEquals(sideA.size(), lct.rootSize(e.a()));
        assertEquals(sideB.size(), lct.rootSize(e.b()));
        assertEquals(markOf(sideA), lct.rootMarks(e.a()));
        lct.free(e.node());
        Set<Integer> unmarked = markOf(sideA) == 0 ? sideA : sideB;
        int m = new ArrayList<>(unmarked).get(random.nextInt(unmarked.size()));
        lct.setMark(m, true);
        marked.add(m);
    }

    /** The path query, and if asked the heaviest edge replaced by u~v, checking what the forest reads. */
    private void swap(int u, int v, double w, List<Edge> path, boolean replace) {
        Edge max = path.get(0);
        for (Edge e : path) {
            if (heavier(e, max)) {
                max = e;
            }
        }
        assertEquals(max.node(), lct.heaviestOnPath(u, v), "heaviest on " + u + ".." + v);
        boolean above = w != max.w() ? w > max.w() : nextPayload > lct.payload(max.node());
        assertEquals(above, lct.heavierThanPathMax(w, nextPayload), "weight " + w + " above the path's heaviest");
        if (!replace) {
            return;
        }
        Set<Integer> onPath = new HashSet<>();
        for (Edge e : path) {
            onPath.add(e.a());
            onPath.add(e.b());
        }
        int c = marked(component(u, null));
        lct.cutOnPath(max.node());
        remove(max);
        int[] ends = {u, v};
        for (int s = 0; s < 2; s++) {
            Set<Integer> side = component(ends[s], null);
            assertEquals(side.size(), lct.sideSize(s), "size of side " + s);
            assertEquals(markOf(side), lct.sideMarks(s), "mark of side " + s);
            boolean cOnSidePath = onPath.contains(c) && side.contains(c);
            assertEquals(cOnSidePath, lct.onSidePath(s), "centroid on the path of side " + s);
            if (cOnSidePath && c != ends[s]) {
                assertEquals(component(ends[s], c).size(), lct.branchSize(s, c), "branch of " + c + " side " + s);
            }
        }
        lct.free(max.node());
        int x = newEdge(w, u, v);
        lct.linkAcross(x);
        add(new Edge(u, v, w, x));
    }

    private int newEdge(double w, int u, int v) {
        return lct.newEdge(nextPayload++, w, u, v);
    }

    private boolean heavier(Edge e1, Edge e2) {
        int c = Double.compare(e1.w(), e2.w());
        return c != 0 ? c > 0 : lct.payload(e1.node()) > lct.payload(e2.node());
    }

    private void add(Edge e) {
        adjacent.get(e.a()).put(e.b(), e);
        adjacent.get(e.b()).put(e.a(), e);
    }

    private void remove(Edge e) {
        adjacent.get(e.a()).remove(e.b());
        adjacent.get(e.b()).remove(e.a());
    }

    private void replace(Edge old, Edge e) {
        remove(old);
        add(e);
    }

    /** The number of marked vertices of a component. */
    private int markOf(Set<Integer> component) {
        int marks = 0;
        for (int x : component) {
            if (marked.contains(x)) {
                marks++;
            }
        }
        return marks;
    }

    /** The marked vertex of a component that has one. */
    private int marked(Set<Integer> component) {
        for (int x : component) {
            if (marked.contains(x)) {
                return x;
            }
        }
        throw new AssertionError("no marked vertex in " + component);
    }

    /** The vertices reachable from start without passing through {@code blocked} (null: none). */
    private Set<Integer> component(int start, Integer blocked) {
        Set<Integer> seen = new HashSet<>(List.of(start));
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            for (Integer y : adjacent.get(queue.poll()).keySet()) {
                if (!y.equals(blocked) && seen.add(y)) {
                    queue.add(y);
                }
            }
        }
        return seen;
    }

    /** The tree edges on the path u..v, or null if they are in different trees. */
    private List<Edge> path(int u, int v) {
        Map<Integer, Edge> via = new HashMap<>();
        via.put(u, null);
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(u));
        while (!queue.isEmpty()) {
            int x = queue.poll();
            for (Map.Entry<Integer, Edge> entry : adjacent.get(x).entrySet()) {
                if (!via.containsKey(entry.getKey())) {
                    via.put(entry.getKey(), entry.getValue());
                    queue.add(entry.getKey());
                }
            }
        }
        if (!via.containsKey(v)) {
            return null;
        }
        List<Edge> path = new ArrayList<>();
        for (int x = v; x != u; ) {
            Edge e = via.get(x);
            path.add(e);
            x = e.a() == x ? e.b() : e.a();
        }
        return path;
    }
}
