package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.graph.EdgeLists;
import io.tracesync.core.graph.LinkCutTrees;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The minimum spanning forest of the participating links, maintained under new vertices, new edges, weight
 * changes and removals ([Jabbarifar 2013, Alg. 8], extended with increases and removals), together with every tree's
 * reference node ({@link ReferenceNodes}).
 *
 * <p>Tree edges live in {@link LinkCutTrees}; a new or lighter edge between two vertices of one tree replaces the
 * heaviest edge of the cycle it closes if it is lighter (cycle property), two trees are simply joined. When a tree
 * edge gets heavier or disappears, the lightest non-tree edge across the cut (the old edge included, if still
 * there) takes its place: the smaller side is enumerated through the tree's adjacency and the edges of its
 * vertices scanned, O(size of the smaller side + its degrees).
 *
 * <p>Every change that alters the path from a vertex to its reference reports a dirty root to {@code dirty}: the
 * vertex whose whole subtree, away from its reference, needs new factors; the reference itself means the whole
 * tree. The references it reports against are those {@link ReferenceNodes} carries between two settles.
 */
final class SpanningForest {

    private final LinkCutTrees lct = new LinkCutTrees(this::compareTies);
    private final EdgeLists graph = new EdgeLists();
    private final EdgeTable edges = new EdgeTable();
    private final TreeScan scan = new TreeScan();
    private final IncidenceLists tree = new IncidenceLists();
    private final ReferenceNodes references;
    private final MinimaxBounds bounds = new MinimaxBounds(this);
    private final IntConsumer dirty;
    private final NetworkStats stats;
    private String[] names = new String[16];
    /** Per vertex: its links in the graph. */
    private int[] degree = new int[16];
    private int cutMarksA;
    private int cutSizeA;
    private int cutSizeB;

    SpanningForest(IntConsumer dirty, NetworkStats stats, ReferenceRule rule) {
        this.dirty = dirty;
        this.stats = stats;
        this.references = new ReferenceNodes(this, lct, stats, rule);
    }

    ReferenceNodes references() {
        return references;
    }

    MinimaxBounds bounds() {
        return bounds;
    }

    LinkCutTrees lct() {
        return lct;
    }

    IncidenceLists treeEdges() {
        return tree;
    }

    /** A new vertex: a tree of its own, its own centroid. */
    int addVertex(String name) {
        int v = lct.newVertex();
        if (v >= names.length) {
            names = Arrays.copyOf(names, Math.max(v + 1, 2 * names.length));
            scan.grow(names.length);
            degree = Arrays.copyOf(degree, names.length);
        }
        names[v] = name;
        bounds.addVertex(v);
        references.addVertex(v);
        dirty.accept(v);
        return v;
    }

    String name(int v) {
        return names[v];
    }

    /** The links of vertex v in the graph. */
    int degree(int v) {
        return degree[v];
    }

    int endA(int e) {
        return edges.a(e);
    }

    int endB(int e) {
        return edges.b(e);
    }

    /** The other end of edge e. */
    int other(int e, int v) {
        return edges.a(e) == v ? edges.b(e) : edges.a(e);
    }

    /** One more than the largest edge id handed out: edges are 1 ≤ e &lt; edgeLimit(), live or free. */
    int edgeLimit() {
        return edges.limit();
    }

    /** Whether edge id e is a link of the graph now (not a free slot). */
    boolean live(int e) {
        return edges.live(e);
    }

    boolean inTree(int e) {
        return edges.node(e) != 0;
    }

    double weight(int e) {
        return edges.weight(e);
    }

    /** The edge of a link-cut tree edge node. */
    int edgeOfNode(int x) {
        return lct.payload(x);
    }

    /** The edge between u and v, or 0. */
    int edge(int u, int v) {
        return edges.id(u, v);
    }

    /** True if edge e1 ranks above e2 in {@link EdgeOrder}. */
    private boolean heavier(int e1, int e2) {
        int c = Double.compare(edges.weight(e1), edges.weight(e2));
        return c != 0 ? c > 0 : compareTies(e1, e2) > 0;
    }

    private int compareTies(int e1, int e2) {
        int c = names[edges.a(e1)].compareTo(names[edges.a(e2)]);
        return c != 0 ? c : names[edges.b(e1)].compareTo(names[edges.b(e2)]);
    }

    /**
     * Sets the weight of the edge a~b (name(a) &lt; name(b)), whose id the caller looked up ({@link #edge}: 0 if
     * new), adding it if new, and restores the minimum spanning forest. Returns the edge id.
     */
    int upsert(int e, int a, int b, double w) {
        if (e == 0) {
            e = edges.add(a, b, w);
            graph.add(a, e, 0, w);
            graph.add(b, e, 1, w);
            insert(e);
            bounds.relax(a, b, w);
            degreeChanged(a, 1);
            degreeChanged(b, 1);
            return e;
        }
        double old = edges.weight(e);
        if (w == old) {
            return e;
        }
        edges.setWeight(e, w);
        graph.setWeight(e, a, b, w);
        if (edges.node(e) != 0) {
            lct.setWeight(edges.node(e), w);
        }
        if (w < old) {
            stats.decreases++;
            if (edges.node(e) == 0) {
                insert(e);
            }
        } else {
            stats.increases++;
            if (edges.node(e) != 0) {
                detach(e, true);
            }
        }
        bounds.relax(a, b, w);
        return e;
    }

    /** Removes the edge a~b if present, restoring the forest. */
    void remove(int a, int b) {
        int e = edge(a, b);
        if (e == 0) {
            return;
        }
        stats.removals++;
        if (edges.node(e) != 0) {
            detach(e, false);
        }
        graph.remove(edges.a(e), e, 0);
        graph.remove(edges.b(e), e, 1);
        degreeChanged(a, -1);
        degreeChanged(b, -1);
        edges.free(e);
    }

    /** Vertex v gained or lost a link: its tree's reference is chosen again at the next settle. */
    private void degreeChanged(int v, int change) {
        degree[v] += change;
        references.touch(references.centroidOf(v));
    }

    /**
     * An edge not in the forest: joins two trees, replaces the cycle's heaviest edge, or stays out (Alg. 8);
     * without a path query when {@link MinimaxBounds} already shows it heavier than the whole cycle.
     */
    private void insert(int e) {
        int u = edges.a(e);
        int v = edges.b(e);
        if (!bounds.sameTree(u, v)) {
            joinTrees(e, u, v);
            return;
        }
        if (bounds.staysOut(u, v, edges.weight(e))) {
            stats.cycleDropped++;
            stats.cycleBoundDropped++;
            return;
        }
        int x = lct.heaviestOnPath(u, v);
        if (lct.heavierThanPathMax(edges.weight(e), e)) {
            stats.cycleDropped++;
            bounds.missed();
            return;
        }
        int max = lct.payload(x);
        stats.cycleKept++;
        int c = references.centroidOf(u);
        int r = references.effective(c);
        if (r != c) {
            unlinkTree(max);
            relink(e, c, r);
        } else {
            swap(e, max, c);
        }
    }

    /**
     * The cycle case on the path u..v just queried, e replacing its heaviest edge old, the tree's centroid c
     * being its reference: the side S of old without c moves, so every branch of c keeps its size unless c is on
     * the path, where the branch towards e's end on c's side gains S; only if that reaches half the tree does the
     * centroid move, along the path from c towards S (Lemma 2). The reference stays c until the next settle.
     */
    private void swap(int e, int old, int c) {
        int u = edges.a(e);
        int v = edges.b(e);
        lct.cutOnPath(edges.node(old));
        removeTreeEdge(old);
        long t0 = stats.clock();
        int cSide = lct.sideMarks(0) > 0 ? 0 : 1;
        int far = cSide == 0 ? v : u;
        boolean moves = false;
        if (lct.onSidePath(cSide)) {
            int n = lct.sideSize(0) + lct.sideSize(1);
            int moved = lct.sideSize(1 - cSide);
            long branch = c == (cSide == 0 ? u : v) ? 0 : lct.branchSize(cSide, c);
            moves = 2 * (branch + moved) >= n;
        }
        stats.referenceNanos += stats.clock() - t0;
        int x = lct.newEdge(e, edges.weight(e), edges.a(e), edges.b(e));
        lct.linkAcross(x);
        addTreeEdge(e, x);
        if (moves) {
            long t1 = stats.clock();
            references.move(c, references.searchPath(c, far));
            stats.referenceNanos += stats.clock() - t1;
        }
        dirty.accept(far);
    }

    /** Joins two trees through e, classified as [Jabbarifar 2013, Table 4.1] counts them. */
    private void joinTrees(int e, int u, int v) {
        int nu = bounds.treeSize(u);
        int nv = bounds.treeSize(v);
        if (nu == 1 && nv == 1) {
            stats.newTrees++;
        } else if (nu == 1 || nv == 1) {
            stats.insertions++;
        } else {
            stats.joins++;
        }
        join(e, references.centroidOf(u), references.centroidOf(v), nu <= nv ? u : v);
    }

    /**
     * Links e between two trees of centroids cu and cv, {@code small} being e's end in the smaller one: the new
     * centroid lies on the path between the old ones (§4.5.5). The larger tree's reference is kept until the next
     * settle, so the smaller tree's factors are new.
     */
    private void join(int e, int cu, int cv, int small) {
        long t0 = stats.clock();
        boolean smallIsA = small == edges.a(e);
        int r = references.effective(smallIsA ? cv : cu);
        long t1 = stats.clock();
        linkTree(e);
        bounds.joined(e, small);
        long t2 = stats.clock();
        references.joined(cu, cv, references.searchPath(cu, cv), r);
        stats.referenceNanos += t1 - t0 + stats.clock() - t2;
        dirty.accept(small);
    }

    /**
     * Links e across a cut of one tree whose centroid was c and effective reference r; the vertex set is
     * unchanged, so the new centroid lies on the path from c to e's end on the side without c (Lemma 2).
     */
    private void relink(int e, int c, int r) {
        int u = edges.a(e);
        int v = edges.b(e);
        long t0 = stats.clock();
        boolean cWithU = lct.treeMarks(u) > 0;
        int farC = cWithU ? v : u;
        int farR = r == c ? farC : cWithU == (lct.treeMarks(r) > 0) ? v : u;
        long t1 = stats.clock();
        linkTree(e);
        long t2 = stats.clock();
        references.move(c, references.searchPath(c, farC));
        stats.referenceNanos += t1 - t0 + stats.clock() - t2;
        dirty.accept(farR);
    }

    /**
     * Takes tree edge e out of the forest (heavier, or about to be removed: then it is no candidate) and puts
     * the lightest edge across the cut in its place, or splits the tree.
     */
    private void detach(int e, boolean candidate) {
        int a = edges.a(e);
        int b = edges.b(e);
        int c = references.centroidOf(a);
        int r = references.effective(c);
        unlinkTree(e);
        int sa = cutSizeA;
        int sb = cutSizeB;
        boolean cWithA = cutMarksA > 0;
        int scanned = sa <= sb ? a : b;
        int replacement = lightestAcross(scanned, candidate ? 0 : e);
        if (replacement != 0) {
            stats.replacements++;
            relink(replacement, c, r);
            bounds.replaced(e, replacement, inScan(edges.a(replacement)) ? edges.a(replacement) : edges.b(replacement),
                    this::inScan);
            return;
        }
        bounds.split(e, scanned, scanned == a ? sa : sb, this::inScan);
        stats.splits++;
        long t0 = stats.clock();
        int c1 = references.walk(c, cWithA ? sa : sb);
        int c2 = references.walk(cWithA ? b : a, cWithA ? sb : sa);
        references.split(c, c1, c2);
        stats.referenceNanos += stats.clock() - t0;
        dirty.accept(references.effective(references.effective(c1) == r ? c2 : c1));
    }

    /**
     * The lightest non-tree edge with exactly one end in the tree of {@code start} (skipping {@code excluded}), or
     * 0: a breadth-first enumeration of that tree, then a scan of its vertices' edges.
     */
    private int lightestAcross(int start, int excluded) {
        int tail = enumerateTree(start);
        int best = 0;
        double bestWeight = Double.POSITIVE_INFINITY;
        for (int k = 0; k < tail; k++) {
            long[] row = graph.row(scan.vertex(k));
            for (int i = 1, n = row == null ? 0 : (int) row[0]; i <= n; i++) {
                // The row's weight first: once a candidate is found most edges are heavier, and nothing else of
                // them is read.
                if (EdgeLists.weightFloor(row[i]) > bestWeight) {
                    continue;
                }
                int s = EdgeLists.slot(row[i]);
                int f = EdgeLists.edge(s);
                if (edges.weight(f) <= bestWeight && f != excluded && edges.node(f) == 0
                        && !scan.contains(EdgeLists.side(s) == 0 ? edges.b(f) : edges.a(f))
                        && (best == 0 || heavier(best, f))) {
                    best = f;
                    bestWeight = edges.weight(f);
                }
            }
        }
        stats.replacementScans += tail;
        return best;
    }

    /**
     * Enumerates the tree of {@code start} breadth first: its vertices are {@link #enumerated}(0) until the count
     * returned, and {@link #inScan} tells them apart until the next enumeration.
     */
    int enumerateTree(int start) {
        return scan.enumerate(start, tree);
    }

    /** The k-th vertex of the last {@link #enumerateTree}. */
    int enumerated(int k) {
        return scan.vertex(k);
    }

    /** Whether v is on the side of the last cut that {@link #lightestAcross} enumerated. */
    private boolean inScan(int v) {
        return scan.contains(v);
    }

    private void linkTree(int e) {
        int x = lct.newEdge(e, edges.weight(e), edges.a(e), edges.b(e));
        lct.linkEdge(edges.a(e), x, edges.b(e));
        addTreeEdge(e, x);
    }

    /** The bookkeeping of e joining the forest as edge node x. */
    private void addTreeEdge(int e, int x) {
        edges.setNode(e, x);
        tree.add(edges.a(e), e, 0, edges.b(e));
        tree.add(edges.b(e), e, 1, edges.a(e));
    }

    /** Cuts tree edge e; the two sides' marks and sizes are left in cutMarksA, cutSizeA and cutSizeB. */
    private void unlinkTree(int e) {
        lct.cutEdge(edges.a(e), edges.node(e), edges.b(e));
        cutMarksA = lct.rootMarks(edges.a(e));
        cutSizeA = lct.rootSize(edges.a(e));
        cutSizeB = lct.rootSize(edges.b(e));
        removeTreeEdge(e);
    }

    /** The bookkeeping of e, already cut, leaving the forest. */
    private void removeTreeEdge(int e) {
        lct.free(edges.node(e));
        edges.setNode(e, 0);
        tree.remove(edges.a(e), e, 0);
        tree.remove(edges.b(e), e, 1);
    }

    /** Every tree edge, as edge ids. */
    List<Integer> treeEdgeIds() {
        List<Integer> out = new ArrayList<>();
        edges.forEachLive(e -> {
            if (edges.node(e) != 0) {
                out.add(e);
            }
        });
        return out;
    }
}
