package io.tracesync.core.network;

import java.util.Arrays;

/**
 * Every vertex's factor to its tree's reference (thesis Alg. 9), recomputed lazily: changes only record dirty
 * roots (a vertex whose subtree, seen from its reference, needs new factors; the reference itself for the whole
 * tree) and dirty tree edges (whose far side needs new factors), and {@link #drain} recomputes exactly those
 * subtrees, each vertex from its parent's factor and the hop between them, then reports the vertices whose
 * reference or factor differ from what was last reported. Between two drains any number of changes coalesce.
 */
final class FactorPropagation {

    private final SpanningForest forest;
    private final NetworkStats stats;
    private LinkEstimate[] links = new LinkEstimate[16];
    private Hop[] forward = new Hop[16];
    private Hop[] backward = new Hop[16];
    private int[] edgeStamp = new int[16];
    private Factor[] factor = new Factor[16];
    private int[] reference = new int[16];
    private Factor[] reportedFactor = new Factor[16];
    private int[] reportedReference = new int[16];
    private int[] rootStamp = new int[16];
    private int[] visited = new int[16];
    private int[] roots = new int[16];
    private int rootCount;
    private int[] edges = new int[16];
    private int edgeCount;
    private int epoch = 1;
    private int[] stack = new int[32];
    private int[] touched = new int[16];

    FactorPropagation(SpanningForest forest, NetworkStats stats) {
        this.forest = forest;
        this.stats = stats;
    }

    private void ensureVertex(int v) {
        if (v >= factor.length) {
            int n = Math.max(v + 1, 2 * factor.length);
            factor = Arrays.copyOf(factor, n);
            reference = Arrays.copyOf(reference, n);
            reportedFactor = Arrays.copyOf(reportedFactor, n);
            reportedReference = Arrays.copyOf(reportedReference, n);
            rootStamp = Arrays.copyOf(rootStamp, n);
            visited = Arrays.copyOf(visited, n);
        }
    }

    private void ensureEdge(int e) {
        if (e >= links.length) {
            int n = Math.max(e + 1, 2 * links.length);
            links = Arrays.copyOf(links, n);
            forward = Arrays.copyOf(forward, n);
            backward = Arrays.copyOf(backward, n);
            edgeStamp = Arrays.copyOf(edgeStamp, n);
        }
    }

    /** Edge e's new estimate; its hops are derived when first needed. */
    void setLink(int e, LinkEstimate link) {
        ensureEdge(e);
        links[e] = link;
        forward[e] = null;
        backward[e] = null;
    }

    void dirtyRoot(int v) {
        ensureVertex(v);
        if (rootStamp[v] != epoch) {
            rootStamp[v] = epoch;
            roots = IntArrays.grow(roots, rootCount + 1);
            roots[rootCount++] = v;
        }
    }

    /** Tree edge e carries a new map or bounds. */
    void dirtyEdge(int e) {
        ensureEdge(e);
        if (edgeStamp[e] != epoch) {
            edgeStamp[e] = epoch;
            edges = IntArrays.grow(edges, edgeCount + 1);
            edges[edgeCount++] = e;
        }
    }

    Factor factor(int v) {
        return reportedFactor[v];
    }

    int reference(int v) {
        return reportedReference[v];
    }

    /** Recomputes what is dirty; the vertices whose reference or factor changed, in {@code out}, count returned. */
    int drain(int[][] out) {
        ReferenceNodes refs = forest.references();
        LinkCutTrees lct = forest.lct();
        for (int i = 0; i < edgeCount; i++) {
            int e = edges[i];
            if (forest.inTree(e)) {
                int a = forest.endA(e);
                int r = refs.referenceOf(a);
                dirtyRoot(forest.edgeOfNode(lct.parentEdge(r, a)) == e ? a : forest.endB(e));
            }
        }
        int touchedCount = 0;
        for (int i = 0; i < rootCount; i++) {
            int x = roots[i];
            if (visited[x] == epoch) {
                continue;
            }
            int r = refs.referenceOf(x);
            int up = 0;
            if (x == r) {
                factor[x] = Factor.REFERENCE;
            } else {
                up = forest.edgeOfNode(lct.parentEdge(r, x));
                int p = forest.other(up, x);
                if (factor[p] == null) {
                    continue; // p is new: a root still to come covers p, hence x
                }
                factor[x] = factor[p].child(hop(up, x));
            }
            reference[x] = r;
            touchedCount = subtree(x, up, r, touchedCount);
        }
        stats.factorsComputed += touchedCount;
        int changed = 0;
        int[] result = out[0].length >= touchedCount ? out[0] : new int[touchedCount];
        for (int i = 0; i < touchedCount; i++) {
            int v = touched[i];
            if (reference[v] != reportedReference[v] || !factor[v].equals(reportedFactor[v])) {
                reportedReference[v] = reference[v];
                reportedFactor[v] = factor[v];
                result[changed++] = v;
            }
        }
        stats.factorsChanged += changed;
        out[0] = result;
        rootCount = 0;
        edgeCount = 0;
        epoch++;
        return changed;
    }

    /** The hop from v across edge e towards its other end. */
    private Hop hop(int e, int v) {
        if (forest.endA(e) == v) {
            if (forward[e] == null) {
                forward[e] = Hop.forward(links[e]);
            }
            return forward[e];
        }
        if (backward[e] == null) {
            backward[e] = Hop.backward(links[e]);
        }
        return backward[e];
    }

    /** Recomputes the subtree below x (entered over edge up), depth first; returns the new touched count. */
    private int subtree(int x, int up, int r, int touchedCount) {
        IncidenceLists tree = forest.treeEdges();
        int top = 0;
        stack = IntArrays.grow(stack, 2);
        stack[top++] = x;
        stack[top++] = up;
        while (top > 0) {
            int in = stack[--top];
            int v = stack[--top];
            if (visited[v] != epoch) {
                visited[v] = epoch;
                touched = IntArrays.grow(touched, touchedCount + 1);
                touched[touchedCount++] = v;
            }
            for (int i = 0, n = tree.count(v); i < n; i++) {
                int e = tree.edge(v, i);
                if (e == in) {
                    continue;
                }
                int y = forest.other(e, v);
                factor[y] = factor[v].child(hop(e, y));
                reference[y] = r;
                stack = IntArrays.grow(stack, top + 2);
                stack[top++] = y;
                stack[top++] = e;
            }
        }
        return touchedCount;
    }
}
