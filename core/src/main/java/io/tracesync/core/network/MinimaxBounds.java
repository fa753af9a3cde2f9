package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.collect.IntArrays;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * For every vertex, an upper bound of the heaviest edge on its spanning-tree path to its tree's anchor, a vertex
 * fixed per tree, and a label telling the trees apart (with each tree's size). A new edge heavier than both its
 * ends' bounds, in one tree, is heavier than every edge of the cycle it closes and stays out (cycle property): no
 * path query.
 *
 * <p>In a minimum spanning forest the heaviest edge on the path between two vertices is their minimax distance in
 * the whole graph, which new edges and lower weights can only decrease: the bounds stay valid through every cycle
 * case and weight decrease and need work only when trees join (the smaller one is relabelled and bounded through
 * the new edge, O(n log n) over all joins), when a tree edge is replaced (the scanned side is re-bounded through
 * its replacement; if the anchor was on that side, the other end of the old edge becomes the anchor, the bounds
 * of its side holding for it) and when a tree splits (the scanned side is re-bounded from scratch). Each link
 * update also tightens its ends' bounds through the link ({@link #relax}). Bounds still grow stale as the forest
 * improves: once the path queries that a stale bound let through exceed n/16, every tree is re-bounded exactly in
 * one O(n) pass, which costs about as much as that many path queries.
 */
final class MinimaxBounds {

    private final SpanningForest forest;
    /**
     * Per vertex: its label in the high half, its bound as a float rounded up in the low half; one word, so that a
     * link update reads all it needs of each end in one cache miss.
     */
    private long[] cells = new long[16];
    private int[] anchor = new int[16];
    /** Vertices per label. */
    private int[] size = new int[16];
    private int vertices;
    private int nextLabel = 1;
    private int missed;
    private int[] stack = new int[32];
    private double[] stackMax = new double[16];

    MinimaxBounds(SpanningForest forest) {
        this.forest = forest;
    }

    /** A new vertex. */
    void addVertex(int v) {
        if (v >= cells.length) {
            cells = Arrays.copyOf(cells, Math.max(v + 1, 2 * cells.length));
        }
        vertices++;
        int l = newLabel(v);
        size[l] = 1;
        set(v, l, Double.NEGATIVE_INFINITY);
    }

    private int newLabel(int anchorVertex) {
        int l = nextLabel++;
        anchor = IntArrays.grow(anchor, l + 1);
        size = IntArrays.grow(size, anchor.length);
        anchor[l] = anchorVertex;
        return l;
    }

    private void set(int v, int l, double b) {
        float f = (float) b;
        if (f < b) {
            f = Math.nextUp(f);
        }
        cells[v] = (long) l << 32 | Float.floatToRawIntBits(f) & 0xFFFF_FFFFL;
    }

    /** v's tree label: equal exactly for the vertices of one tree. */
    int label(int v) {
        return (int) (cells[v] >>> 32);
    }

    /** The anchor of v's tree. */
    int anchorOf(int v) {
        return anchor[label(v)];
    }

    /** At least the heaviest weight on the path from v to its anchor (-infinity at the anchor itself). */
    double bound(int v) {
        return Float.intBitsToFloat((int) cells[v]);
    }

    boolean sameTree(int u, int v) {
        return label(u) == label(v);
    }

    /** The number of vertices in v's tree. */
    int treeSize(int v) {
        return size[label(v)];
    }

    /**
     * Whether an edge of weight w between u and v, of one tree, is known without a path query to stay out of the
     * forest.
     */
    boolean staysOut(int u, int v, double w) {
        return w > bound(u) && w > bound(v);
    }

    /**
     * Edge u~v of weight w, now in the graph: if u and v are in one tree, the path from u through the edge and on
     * from v bounds u's minimax distance to the anchor by the larger of w and v's bound, and the other way round;
     * either bound is lowered to that if it is lower (rounded up). Every link update relaxes its ends so, which
     * keeps the bounds near the true distances between re-bounds at the cost of a comparison on records just read.
     */
    void relax(int u, int v, double w) {
        long cu = cells[u];
        long cv = cells[v];
        int l = (int) (cu >>> 32);
        if (l != (int) (cv >>> 32)) {
            return;
        }
        float bu = Float.intBitsToFloat((int) cu);
        float bv = Float.intBitsToFloat((int) cv);
        double viaV = Math.max(w, bv);
        if (viaV < bu) {
            set(u, l, viaV);
        } else {
            // only now can v gain: a bound of u lowered through v is at least v's own
            double viaU = Math.max(w, bu);
            if (viaU < bv) {
                set(v, l, viaU);
            }
        }
    }

    /** A path query found an edge staying out that stale bounds let through; re-bounds all when worthwhile. */
    void missed() {
        if (++missed > vertices / 16) {
            missed = 0;
            for (int v = 1; v < cells.length; v++) {
                if (anchor[label(v)] == v) {
                    rebound(v, 0, Double.NEGATIVE_INFINITY, label(v));
                }
            }
        }
    }

    /** Tree edge e has just joined two trees; small is its end in the smaller one. */
    void joined(int e, int small) {
        int big = forest.other(e, small);
        size[label(big)] += size[label(small)];
        rebound(small, e, Math.max(forest.weight(e), bound(big)), label(big));
    }

    /**
     * Tree edge old was cut and r put in its place; scanned is r's end on the side just scanned for it, whose
     * vertices {@code inScan} tells.
     */
    void replaced(int old, int r, int scanned, IntPredicate inScan) {
        int l = label(scanned);
        if (inScan.test(anchor[l])) {
            anchor[l] = inScan.test(forest.endA(old)) ? forest.endB(old) : forest.endA(old);
        }
        int other = forest.other(r, scanned);
        rebound(scanned, r, Math.max(forest.weight(r), bound(other)), l);
    }

    /**
     * Tree edge old was cut and nothing replaced it; scanned is its end on the side just scanned, of scannedSize
     * vertices, which becomes a tree of its own anchored there. If the anchor was on that side, old's other end takes over: the bounds of
     * its side hold for it.
     */
    void split(int old, int scanned, int scannedSize, IntPredicate inScan) {
        int l = label(scanned);
        if (inScan.test(anchor[l])) {
            anchor[l] = forest.other(old, scanned);
        }
        size[l] -= scannedSize;
        int fresh = newLabel(scanned);
        size[fresh] = scannedSize;
        rebound(scanned, 0, Double.NEGATIVE_INFINITY, fresh);
    }

    /**
     * Labels the vertices reachable from start without crossing edge {@code excluded} and bounds each by the
     * larger of base and the heaviest edge on its path from start: a depth-first walk of the tree.
     */
    private void rebound(int start, int excluded, double base, int l) {
        IncidenceLists tree = forest.treeEdges();
        int top = 0;
        push(top++, start, excluded, Double.NEGATIVE_INFINITY);
        while (top > 0) {
            top--;
            int x = stack[2 * top];
            int in = stack[2 * top + 1];
            double max = stackMax[top];
            set(x, l, Math.max(base, max));
            for (int i = 0, n = tree.count(x); i < n; i++) {
                int f = tree.edge(x, i);
                if (f != in) {
                    push(top++, tree.neighbor(x, i), f, Math.max(max, forest.weight(f)));
                }
            }
        }
    }

    private void push(int i, int x, int in, double max) {
        stack = IntArrays.grow(stack, 2 * i + 2);
        if (i >= stackMax.length) {
            stackMax = Arrays.copyOf(stackMax, 2 * stackMax.length);
        }
        stack[2 * i] = x;
        stack[2 * i + 1] = in;
        stackMax[i] = max;
    }
}
