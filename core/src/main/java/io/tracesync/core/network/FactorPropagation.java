package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.collect.IntArrays;
import io.tracesync.core.graph.LinkCutTrees;
import io.tracesync.core.numeric.ClockMap;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Every vertex's factor to its tree's reference [Jabbarifar 2013, Alg. 9], recomputed lazily: changes only record dirty
 * roots (a vertex whose subtree, seen from its reference, needs new factors; the reference itself for the whole
 * tree) and dirty tree edges (whose far side needs new factors), and {@link #drain} recomputes exactly those
 * subtrees, each vertex from its parent's factor and the hop between them, and reports the vertices whose
 * reference or factor changed. Between two drains any number of changes coalesce.
 *
 * <p>Memory latency dominates, so the work is laid out for it. Vertices are held by their slot in a
 * {@link TreeMirror}, which numbers them in the order of a past traversal; a vertex's factor, the hop to its
 * parent and its reference are flat arrays by slot ({@link BoundedMaps}). The dirty subtrees are enumerated depth
 * first over the mirror, each vertex once and always along the same Euler tour of its tree, so that a traversal
 * from another root, or after a few links moved, still sweeps the slots nearly in order; they are renumbered
 * after a traversal that no longer does. The enumerated vertices are then computed a chunk at a time: derive the
 * hops, compose on contiguous scratch, compare and store. {@link Factor} objects are made only for the answers
 * reported or asked for.
 */
final class FactorPropagation {

    /** Positions computed per pass of derive, compose, store: their data stays in cache across the three. */
    private static final int CHUNK = 256;
    /** Consecutive vertices of a traversal further apart in slots count as a jump. */
    private static final int NEAR = 8;
    /** Renumber after a traversal of at least half the slots with more than one jump per this many vertices. */
    private static final int JUMPS = 16;

    private final SpanningForest forest;
    private final NetworkStats stats;
    private final TreeMirror tree;
    private LinkEstimate[] links = new LinkEstimate[16];
    private int[] rootStamp = new int[16];
    private int[] roots = new int[16];
    /** The reference of each deferred root, during a drain. */
    private int[] rootReference = new int[16];
    private int rootCount;
    private int[] edgeStamp = new int[16];
    private int[] edges = new int[16];
    private int edgeCount;
    private int epoch = 1;

    // By slot.
    /** Slot 2s: the factor as last computed (and reported); slot 2s + 1: the hop that {@link #hopKey} names. */
    private BoundedMaps vertices = new BoundedMaps(2 * 16);
    /** The previous vertices, reused by {@link #relayout}. */
    private BoundedMaps spare = new BoundedMaps(0);
    /**
     * 2e + the vertex's side of edge e for the hop held in its hop slot, and the estimate of e it was derived from
     * (a hop depends on nothing else); 0 and null for none.
     */
    private int[] hopKey = new int[16];
    private LinkEstimate[] hopLink = new LinkEstimate[16];
    /** The vertex's reference as last computed, 0 before the first time. */
    private int[] reference = new int[16];
    private int[] visited = new int[16];

    // By position in this drain's traversal.
    /**
     * The vertices to recompute, in blocks (a dirty subtree each, depth first): the slot, the position of its
     * parent (within the block; -1 for the block's root) and the hop key it is entered by.
     */
    private int[] order = new int[16];
    private int[] parentAt = new int[16];
    private int[] via = new int[16];
    private int size;
    private int jumps;
    /** The depth-first stack: per open vertex its position, the index of its next edge, and edges left. */
    private int[] framePosition = new int[16];
    private int[] cursor = new int[16];
    private int[] left = new int[16];
    /** Slot i: the new factor. */
    private final BoundedMaps scratch = new BoundedMaps(16);
    /** Per block: its first position, its reference, its root's parent slot (0 if the root is the reference). */
    private int[] blockStart = new int[16];
    private int[] blockReference = new int[16];
    private int[] blockParent = new int[16];
    private int blockCount;

    FactorPropagation(SpanningForest forest, NetworkStats stats) {
        this.forest = forest;
        this.stats = stats;
        this.tree = new TreeMirror();
    }

    private static int factorSlot(int s) {
        return 2 * s;
    }

    private static int hopSlot(int s) {
        return 2 * s + 1;
    }

    /** Holds a vertex first seen. */
    private void ensureVertex(int v) {
        if (v >= rootStamp.length) {
            rootStamp = Arrays.copyOf(rootStamp, Math.max(v + 1, 2 * rootStamp.length));
        }
        if (tree.slot(v) != 0) {
            return;
        }
        int s = tree.add(v);
        if (s >= reference.length) {
            int n = 2 * reference.length;
            vertices.ensure(hopSlot(n - 1));
            scratch.ensure(n - 1);
            hopKey = Arrays.copyOf(hopKey, n);
            hopLink = Arrays.copyOf(hopLink, n);
            reference = Arrays.copyOf(reference, n);
            visited = Arrays.copyOf(visited, n);
            order = new int[n];
            parentAt = new int[n];
            via = new int[n];
            framePosition = new int[n];
            cursor = new int[n];
            left = new int[n];
        }
    }

    /** The estimate edge e was last given. */
    LinkEstimate link(int e) {
        return links[e];
    }

    /** Edge e's new estimate; its hops are derived when first needed. */
    void setLink(int e, LinkEstimate link) {
        if (e >= links.length) {
            links = Arrays.copyOf(links, Math.max(e + 1, 2 * links.length));
        }
        links[e] = link;
    }

    void dirtyRoot(int v) {
        ensureVertex(v);
        if (rootStamp[v] != epoch) {
            rootStamp[v] = epoch;
            roots = IntArrays.grow(roots, rootCount + 1);
            rootReference = IntArrays.grow(rootReference, rootCount + 1);
            roots[rootCount++] = v;
        }
    }

    /** Tree edge e carries a new map or bounds. */
    void dirtyEdge(int e) {
        if (e >= edgeStamp.length) {
            edgeStamp = Arrays.copyOf(edgeStamp, Math.max(e + 1, 2 * edgeStamp.length));
        }
        if (edgeStamp[e] != epoch) {
            edgeStamp[e] = epoch;
            edges = IntArrays.grow(edges, edgeCount + 1);
            edges[edgeCount++] = e;
        }
    }

    /** Whether vertex v has a factor yet. */
    boolean known(int v) {
        return reference[tree.slot(v)] != 0;
    }

    /** Vertex v's factor as of the last drain, or null if none yet. */
    Factor factor(int v) {
        int s = tree.slot(v);
        return reference[s] != 0 ? vertices.factor(factorSlot(s)) : null;
    }

    /** Vertex v's reference as of the last drain, 0 if none yet. */
    int reference(int v) {
        return reference[tree.slot(v)];
    }

    /**
     * Recomputes what is dirty and passes the vertices whose reference or factor changed to {@code changed};
     * returns their number. A block reaching the root of an earlier one stops there, and blocks are computed
     * last first, so each vertex is computed once, after its parent. Dirty edges come after the roots: one with
     * an end enumerated already needs nothing more, that end's children being enumerated with it.
     */
    int drain(IntConsumer changed) {
        IncidenceLists lists = forest.treeEdges();
        lists.takeTouched(v -> tree.copy(v, lists));
        ReferenceNodes refs = forest.references();
        LinkCutTrees lct = forest.lct();
        size = 0;
        jumps = 0;
        blockCount = 0;
        int deferred = 0; // roots below their reference: resolved after whole trees, which may cover them
        for (int i = 0; i < rootCount; i++) {
            int x = roots[i];
            if (visited[tree.slot(x)] != epoch) {
                int r = refs.referenceOf(x);
                if (x == r) {
                    enumerate(x, 0, r);
                } else {
                    roots[deferred] = x;
                    rootReference[deferred++] = r;
                }
            }
        }
        for (int i = 0; i < deferred; i++) {
            int x = roots[i];
            if (visited[tree.slot(x)] != epoch) {
                enumerate(x, forest.edgeOfNode(lct.parentEdge(rootReference[i], x)), rootReference[i]);
            }
        }
        for (int i = 0; i < edgeCount; i++) {
            int e = edges[i];
            int a = forest.endA(e);
            int b = forest.endB(e);
            if (forest.inTree(e) && visited[tree.slot(a)] != epoch && visited[tree.slot(b)] != epoch) {
                int r = refs.referenceOf(a);
                enumerate(forest.edgeOfNode(lct.parentEdge(r, a)) == e ? a : b, e, r);
            }
        }
        stats.factorsComputed += size;
        int count = 0;
        for (int k = blockCount - 1; k >= 0; k--) {
            count += compute(k, k + 1 < blockCount ? blockStart[k + 1] : size, changed);
        }
        stats.factorsChanged += count;
        if (2 * size >= tree.slots() && jumps * JUMPS > size) {
            relayout();
        }
        rootCount = 0;
        edgeCount = 0;
        epoch++;
        return count;
    }

    /**
     * Enumerates the subtree of vertex x, entered over edge up from its parent (0 if x is the reference r), as a
     * block, unless the parent is new.
     */
    private void enumerate(int x, int up, int r) {
        int p = up == 0 ? 0 : tree.slot(forest.other(up, x));
        if (p != 0 && reference[p] == 0) {
            return; // p is new: a root still to come covers p, hence x
        }
        blockStart = IntArrays.grow(blockStart, blockCount + 1);
        blockReference = IntArrays.grow(blockReference, blockCount + 1);
        blockParent = IntArrays.grow(blockParent, blockCount + 1);
        blockStart[blockCount] = size;
        blockReference[blockCount] = r;
        blockParent[blockCount++] = p;
        int root = tree.slot(x);
        visited[root] = epoch;
        order[size] = root;
        parentAt[size] = -1;
        via[size] = up == 0 ? 0 : forest.endA(up) == x ? 2 * up : 2 * up + 1;
        int top = open(0, size++);
        while (top > 0) {
            int f = top - 1;
            if (left[f] == 0) {
                top--;
                continue;
            }
            int i = framePosition[f];
            int v = order[i];
            int k = cursor[f];
            cursor[f] = k + 1 == tree.degree(v) ? 0 : k + 1;
            left[f]--;
            int y = tree.neighbor(v, k);
            if (visited[y] != epoch) { // else y roots an earlier block
                visited[y] = epoch;
                jumps += Math.abs(y - order[size - 1]) > NEAR ? 1 : 0;
                order[size] = y;
                parentAt[size] = i;
                via[size] = tree.entry(v, k) ^ 1;
                top = open(top, size++);
            }
        }
    }

    /**
     * Pushes the frame of the vertex at position i: its edges other than the one it is entered by, in cyclic
     * order from the next one, so that traversals from any root follow one Euler tour of the tree.
     */
    private int open(int top, int i) {
        int s = order[i];
        int d = tree.degree(s);
        int k = via[i] == 0 ? 0 : tree.indexOf(s, via[i]) + 1;
        framePosition[top] = i;
        cursor[top] = k == d ? 0 : k;
        left[top] = via[i] == 0 ? d : d - 1;
        return top + 1;
    }

    /** Computes block k, positions blockStart[k] until end, reporting changes; returns their number. */
    private int compute(int k, int end, IntConsumer changes) {
        int first = blockStart[k];
        int r = blockReference[k];
        int p = blockParent[k];
        int changed = 0;
        for (int from = first; from < end; from += CHUNK) {
            int to = Math.min(end, from + CHUNK);
            for (int i = from; i < to; i++) {
                if (i != first || p != 0) {
                    deriveHop(order[i], via[i]);
                }
            }
            for (int i = from; i < to; i++) {
                int h = hopSlot(order[i]);
                if (i != first) {
                    scratch.setChild(i, scratch, parentAt[i], vertices, h);
                } else if (p != 0) {
                    scratch.setChild(i, vertices, factorSlot(p), vertices, h);
                } else {
                    scratch.set(i, ClockMap.IDENTITY, 0, 0); // Factor.REFERENCE
                }
            }
            for (int i = from; i < to; i++) {
                int y = order[i];
                if (reference[y] != r || !scratch.same(i, vertices, factorSlot(y))) {
                    reference[y] = r;
                    vertices.copy(factorSlot(y), scratch, i);
                    changes.accept(tree.vertex(y));
                    changed++;
                }
            }
        }
        return changed;
    }

    /** Makes slot s's hop the one leaving it by {@code key} (2e + its side of edge e), unless it is already. */
    private void deriveHop(int s, int key) {
        LinkEstimate link = links[key >>> 1];
        if (hopKey[s] != key || hopLink[s] != link) {
            Hop hop = (key & 1) == 0 ? Hop.forward(link) : Hop.backward(link);
            vertices.set(hopSlot(s), hop.map(), hop.upPs(), hop.downPs());
            hopKey[s] = key;
            hopLink[s] = link;
        }
    }

    /** Renumbers the slots in the order of this drain's traversal. */
    private void relayout() {
        int[] source = tree.relayout(order, size);
        spare.ensure(hopSlot(reference.length - 1));
        int[] movedKey = new int[hopKey.length];
        LinkEstimate[] movedLink = new LinkEstimate[hopLink.length];
        int[] movedReference = new int[reference.length];
        int[] movedVisited = new int[visited.length];
        for (int t = 1; t < source.length; t++) {
            int s = source[t];
            spare.copy(factorSlot(t), vertices, factorSlot(s));
            spare.copy(hopSlot(t), vertices, hopSlot(s));
            movedKey[t] = hopKey[s];
            movedLink[t] = hopLink[s];
            movedReference[t] = reference[s];
            movedVisited[t] = visited[s];
        }
        BoundedMaps old = vertices;
        vertices = spare;
        spare = old;
        hopKey = movedKey;
        hopLink = movedLink;
        reference = movedReference;
        visited = movedVisited;
    }
}
