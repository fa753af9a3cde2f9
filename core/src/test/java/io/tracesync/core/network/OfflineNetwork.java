package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The from-scratch answer of {@link NetworkSync}: the test oracle of the incremental core and the naive baseline
 * of the benchmark. Deliberately simple, O(m log m + n):
 * <ol>
 *   <li>the minimum spanning forest of the participating links ({@link NetworkOptions#weightOf} not NaN) by
 *       Kruskal under {@link EdgeOrder}, a strict total order, so the forest is unique;</li>
 *   <li>every tree's reference node: the pinned one if it is in the tree, else by the {@link ReferenceRule}: the
 *       node with the most participating links, of those the smallest name; or the centroid, the smaller name of
 *       two ([Jabbarifar 2013, §4.5.1, Lemma 1]: with positive weights the centroids are exactly the vertices of
 *       least total path cost to all others, whatever the weights);</li>
 *   <li>every node's factor, composed from its reference outwards, each child from its parent's factor and the
 *       hop from the child over their link ({@link Factor#child}, [Jabbarifar 2013, §5.5.4, Alg. 9]), exactly as the
 *       incremental core composes them, so the two agree bit for bit.</li>
 * </ol>
 * Isolated nodes, listed or only ends of links that do not take part, are one-node trees, their own reference.
 */
public final class OfflineNetwork {

    private final List<TreeEdge> tree;
    private final Map<String, NodeFactor> factors;

    private OfflineNetwork(List<TreeEdge> tree, Map<String, NodeFactor> factors) {
        this.tree = tree;
        this.factors = factors;
    }

    /**
     * Computes the whole answer.
     *
     * @param nodes nodes that may have no link (the ends of every link are nodes too)
     * @param links at most one estimate per {@link LinkKey}, of any quality
     * @throws IllegalArgumentException on two estimates of one link, or a participating link without a valid
     *         weight
     */
    public static OfflineNetwork compute(Collection<String> nodes, Collection<LinkEstimate> links,
            NetworkOptions options) {
        Objects.requireNonNull(options, "options");

        // Vertices 0..n-1 in name order, so that comparing indices compares names.
        Set<String> nameSet = new HashSet<>();
        for (String node : nodes) {
            nameSet.add(Objects.requireNonNull(node, "node"));
        }
        for (LinkEstimate e : links) {
            nameSet.add(e.key().a());
            nameSet.add(e.key().b());
        }
        String[] names = nameSet.toArray(new String[0]);
        Arrays.sort(names);
        int n = names.length;
        Map<String, Integer> index = new HashMap<>(2 * n);
        for (int v = 0; v < n; v++) {
            index.put(names[v], v);
        }

        // 1. Kruskal over the participating links, after checking that no link comes twice.
        LinkEstimate[] link = links.toArray(new LinkEstimate[0]);
        int[] linkA = new int[link.length];
        int[] linkB = new int[link.length];
        long[] pairs = new long[link.length];
        for (int i = 0; i < link.length; i++) {
            linkA[i] = index.get(link[i].key().a());
            linkB[i] = index.get(link[i].key().b());
            pairs[i] = (long) linkA[i] * n + linkB[i];
        }
        Arrays.sort(pairs);
        for (int i = 1; i < pairs.length; i++) {
            if (pairs[i] == pairs[i - 1]) {
                throw new IllegalArgumentException("two estimates of link "
                        + new LinkKey(names[(int) (pairs[i] / n)], names[(int) (pairs[i] % n)]));
            }
        }
        double[] weight = new double[link.length];
        int[] degree = new int[n];
        int m = 0;
        for (int i = 0; i < link.length; i++) {
            weight[i] = options.weightOf(link[i]);
            if (!Double.isNaN(weight[i])) {
                m++;
                degree[linkA[i]]++;
                degree[linkB[i]]++;
            }
        }
        Integer[] order = new Integer[m];
        for (int i = 0, k = 0; i < link.length; i++) {
            if (!Double.isNaN(weight[i])) {
                order[k++] = i;
            }
        }
        // EdgeOrder, its first key compared up front as the shortcut for the common case.
        Arrays.sort(order, (i, j) -> weight[i] != weight[j] ? Double.compare(weight[i], weight[j])
                : EdgeOrder.compare(weight[i], names[linkA[i]], names[linkB[i]], weight[j], names[linkA[j]],
                        names[linkB[j]]));
        int[] set = new int[n];
        for (int v = 0; v < n; v++) {
            set[v] = v;
        }
        int[] treeLinks = new int[Math.max(0, n - 1)];
        int treeCount = 0;
        for (int i : order) {
            int ra = find(set, linkA[i]);
            int rb = find(set, linkB[i]);
            if (ra != rb) {
                set[ra] = rb;
                treeLinks[treeCount++] = i;
            }
        }

        // The forest's adjacency (compressed rows): the tree links at each vertex.
        int[] endA = new int[treeCount];
        int[] endB = new int[treeCount];
        int[] start = new int[n + 1];
        for (int k = 0; k < treeCount; k++) {
            endA[k] = linkA[treeLinks[k]];
            endB[k] = linkB[treeLinks[k]];
            start[endA[k] + 1]++;
            start[endB[k] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] adjacent = new int[2 * treeCount];
        int[] fill = Arrays.copyOf(start, n);
        for (int k = 0; k < treeCount; k++) {
            adjacent[fill[endA[k]]++] = k;
            adjacent[fill[endB[k]]++] = k;
        }

        // 2. and 3. Per tree: the reference, then every factor from it outwards.
        Integer pinnedIndex = options.pinnedReference() == null ? null : index.get(options.pinnedReference());
        int pinned = pinnedIndex == null ? -1 : pinnedIndex;
        int[] parent = new int[n];
        int[] size = new int[n];
        int[] component = new int[n]; // the vertices of the current tree, each after its parent
        boolean[] visited = new boolean[n];
        int[] reference = new int[n];
        int[] upEdge = new int[n];
        Factor[] factor = new Factor[n];
        for (int root = 0; root < n; root++) {
            if (visited[root]) {
                continue;
            }
            int count = 0;
            component[count++] = root;
            visited[root] = true;
            parent[root] = -1;
            for (int head = 0; head < count; head++) {
                int x = component[head];
                for (int p = start[x]; p < start[x + 1]; p++) {
                    int k = adjacent[p];
                    int y = endA[k] == x ? endB[k] : endA[k];
                    if (!visited[y]) {
                        visited[y] = true;
                        parent[y] = x;
                        component[count++] = y;
                    }
                }
            }
            boolean hasPinned = false;
            for (int i = count - 1; i >= 0; i--) {
                int x = component[i];
                size[x] = 1;
                for (int p = start[x]; p < start[x + 1]; p++) {
                    int k = adjacent[p];
                    int y = endA[k] == x ? endB[k] : endA[k];
                    if (y != parent[x]) {
                        size[x] += size[y];
                    }
                }
                hasPinned |= x == pinned;
            }
            int r = hasPinned ? pinned
                    : options.referenceRule() == ReferenceRule.CENTROID
                            ? centroid(component, count, parent, size, start, adjacent, endA, endB)
                            : mostLinked(component, count, degree);

            // From r outwards, breadth first: each child's factor from its parent's.
            factor[r] = Factor.REFERENCE;
            reference[r] = r;
            upEdge[r] = -1;
            component[0] = r;
            count = 1;
            for (int head = 0; head < count; head++) {
                int x = component[head];
                for (int p = start[x]; p < start[x + 1]; p++) {
                    int k = adjacent[p];
                    if (k == upEdge[x]) {
                        continue;
                    }
                    int y = endA[k] == x ? endB[k] : endA[k];
                    LinkEstimate l = link[treeLinks[k]];
                    Hop hop = y == endA[k] ? Hop.forward(l) : Hop.backward(l);
                    factor[y] = factor[x].child(hop);
                    reference[y] = r;
                    upEdge[y] = k;
                    component[count++] = y;
                }
            }
        }

        TreeEdge[] edges = new TreeEdge[treeCount];
        for (int k = 0; k < treeCount; k++) {
            edges[k] = new TreeEdge(names[endA[k]], names[endB[k]], weight[treeLinks[k]]);
        }
        Arrays.sort(edges);
        TreeMap<String, NodeFactor> byName = new TreeMap<>();
        for (int v = 0; v < n; v++) {
            byName.put(names[v], new NodeFactor(names[v], names[reference[v]], factor[v]));
        }
        return new OfflineNetwork(List.of(edges), Collections.unmodifiableSortedMap(byName));
    }

    /** The root of v's set, halving the path on the way. */
    private static int find(int[] set, int v) {
        while (set[v] != v) {
            set[v] = set[set[v]];
            v = set[v];
        }
        return v;
    }

    /** The vertex of one tree with the most participating links, of those the smallest index (name). */
    private static int mostLinked(int[] component, int count, int[] degree) {
        int best = component[0];
        for (int i = 1; i < count; i++) {
            int x = component[i];
            if (degree[x] > degree[best] || degree[x] == degree[best] && x < best) {
                best = x;
            }
        }
        return best;
    }

    /**
     * The centroid of one tree, the smaller index (name) of two: a vertex whose removal leaves parts of at most
     * half the tree, the part above it (count - size) and each child's subtree.
     */
    private static int centroid(int[] component, int count, int[] parent, int[] size, int[] start, int[] adjacent,
            int[] endA, int[] endB) {
        int best = -1;
        for (int i = 0; i < count; i++) {
            int x = component[i];
            int largest = count - size[x];
            for (int p = start[x]; p < start[x + 1]; p++) {
                int k = adjacent[p];
                int y = endA[k] == x ? endB[k] : endA[k];
                if (y != parent[x]) {
                    largest = Math.max(largest, size[y]);
                }
            }
            if (2 * largest <= count && (best < 0 || x < best)) {
                best = x;
            }
        }
        return best;
    }

    /** The minimum spanning forest's links, sorted by their ends, each with its weight. */
    public List<TreeEdge> tree() {
        return tree;
    }

    /** Every node's answer, sorted by name, isolated nodes included. */
    public Map<String, NodeFactor> factors() {
        return factors;
    }

    /**
     * The reference node of the node's tree.
     *
     * @throws IllegalArgumentException if the node is unknown
     */
    public String referenceOf(String node) {
        NodeFactor f = factors.get(node);
        if (f == null) {
            throw new IllegalArgumentException("unknown node: " + node);
        }
        return f.reference();
    }
}
