package io.tracesync.core.network;

import java.util.Arrays;

/**
 * Sleator–Tarjan link-cut trees over splay trees, O(log n) amortized per operation, with three aggregates:
 * <ul>
 *   <li>path maximum of edge weights: every spanning-forest edge is a node of its own between its two vertices,
 *       so the heaviest edge on a path is a path aggregate (the classic dynamic MST construction);</li>
 *   <li>subtree sizes, counting vertices only, through "virtual" sums of the subtrees hanging off the preferred
 *       path (the thesis' DescendantSize, §4.4, for any root in O(log n));</li>
 *   <li>the sum of vertex marks over a whole tree: exactly one vertex per tree, its centroid, carries its own id,
 *       so one access tells which tree a vertex is in and who its centroid is.</li>
 * </ul>
 * Each node's fields share one 64-byte slot of a single int array, so visiting a node costs one cache miss. Node 0
 * is the null sentinel; vertices are never freed, edge nodes are recycled.
 */
final class LinkCutTrees {

    /** Ranks two edges of equal weight by their payloads; positive if the first is heavier. */
    interface TieBreak {
        int compare(int payload1, int payload2);
    }

    private static final int STRIDE = 16;
    private static final int LEFT = 0;
    private static final int RIGHT = 1;
    private static final int PARENT = 2;
    private static final int FLAGS = 3;
    private static final int HEAVIEST = 4;
    private static final int VIRTUAL_SIZE = 5;
    private static final int SIZE = 6;
    private static final int MARK = 7;
    private static final int VIRTUAL_MARKS = 8;
    private static final int MARKS = 9;
    private static final int WEIGHT = 10;
    private static final int HEAVIEST_WEIGHT = 12;
    private static final int PAYLOAD = 14;
    private static final int FLIP = 1;
    private static final int VERTEX = 2;

    private final TieBreak ties;
    private int[] n = new int[STRIDE * 64];
    private int next = 1;
    private int[] freeList = new int[16];
    private int freeCount;
    private int[] stack = new int[64];

    LinkCutTrees(TieBreak ties) {
        this.ties = ties;
        setDouble(0, HEAVIEST_WEIGHT, Double.NEGATIVE_INFINITY);
    }

    /** A new single-vertex tree. */
    int newVertex() {
        int x = allocate();
        n[x * STRIDE + FLAGS] = VERTEX;
        setDouble(x, WEIGHT, Double.NEGATIVE_INFINITY);
        pull(x);
        return x;
    }

    /** A new edge node, alone, carrying the edge's id and weight. */
    int newEdge(int payload, double w) {
        int x = freeCount > 0 ? freeList[--freeCount] : allocate();
        Arrays.fill(n, x * STRIDE, x * STRIDE + STRIDE, 0);
        n[x * STRIDE + PAYLOAD] = payload;
        setDouble(x, WEIGHT, w);
        pull(x);
        return x;
    }

    private int allocate() {
        int x = next++;
        if ((x + 1) * STRIDE > n.length) {
            n = Arrays.copyOf(n, Math.max((x + 1) * STRIDE, 2 * n.length));
        }
        return x;
    }

    /** Recycles an edge node that is alone in its tree. */
    void free(int x) {
        if (freeCount == freeList.length) {
            freeList = Arrays.copyOf(freeList, 2 * freeCount);
        }
        freeList[freeCount++] = x;
    }

    /** One more than the largest node id handed out so far. */
    int capacity() {
        return next;
    }

    int payload(int x) {
        return n[x * STRIDE + PAYLOAD];
    }

    /** Changes an edge node's weight. */
    void setWeight(int x, double w) {
        access(x);
        setDouble(x, WEIGHT, w);
        pull(x);
    }

    private double getDouble(int x, int field) {
        int i = x * STRIDE + field;
        return Double.longBitsToDouble(((long) n[i] << 32) | (n[i + 1] & 0xFFFF_FFFFL));
    }

    private void setDouble(int x, int field, double v) {
        long bits = Double.doubleToRawLongBits(v);
        int i = x * STRIDE + field;
        n[i] = (int) (bits >>> 32);
        n[i + 1] = (int) bits;
    }

    private boolean isSplayRoot(int x) {
        int p = n[x * STRIDE + PARENT];
        return p == 0 || (n[p * STRIDE + LEFT] != x && n[p * STRIDE + RIGHT] != x);
    }

    /** Recomputes x's aggregates from its own fields and its two splay children. */
    private void pull(int x) {
        int b = x * STRIDE;
        int l = n[b + LEFT];
        int r = n[b + RIGHT];
        int lb = l * STRIDE;
        int rb = r * STRIDE;
        boolean vertex = (n[b + FLAGS] & VERTEX) != 0;
        n[b + SIZE] = n[lb + SIZE] + n[rb + SIZE] + n[b + VIRTUAL_SIZE] + (vertex ? 1 : 0);
        n[b + MARKS] = n[lb + MARKS] + n[rb + MARKS] + n[b + VIRTUAL_MARKS] + n[b + MARK];
        int h = vertex ? 0 : x;
        double hw = vertex ? Double.NEGATIVE_INFINITY : getDouble(x, WEIGHT);
        int lh = n[lb + HEAVIEST];
        if (lh != 0 && heavier(lh, getDouble(l, HEAVIEST_WEIGHT), h, hw)) {
            h = lh;
            hw = getDouble(l, HEAVIEST_WEIGHT);
        }
        int rh = n[rb + HEAVIEST];
        if (rh != 0 && heavier(rh, getDouble(r, HEAVIEST_WEIGHT), h, hw)) {
            h = rh;
            hw = getDouble(r, HEAVIEST_WEIGHT);
        }
        n[b + HEAVIEST] = h;
        setDouble(x, HEAVIEST_WEIGHT, hw);
    }

    private boolean heavier(int e1, double w1, int e2, double w2) {
        if (e2 == 0) {
            return true;
        }
        int c = Double.compare(w1, w2);
        return c != 0 ? c > 0 : ties.compare(payload(e1), payload(e2)) > 0;
    }

    private void push(int x) {
        int b = x * STRIDE;
        if ((n[b + FLAGS] & FLIP) != 0) {
            int l = n[b + LEFT];
            int r = n[b + RIGHT];
            n[b + LEFT] = r;
            n[b + RIGHT] = l;
            if (l != 0) {
                n[l * STRIDE + FLAGS] ^= FLIP;
            }
            if (r != 0) {
                n[r * STRIDE + FLAGS] ^= FLIP;
            }
            n[b + FLAGS] ^= FLIP;
        }
    }

    private void rotate(int x) {
        int xb = x * STRIDE;
        int p = n[xb + PARENT];
        int pb = p * STRIDE;
        int g = n[pb + PARENT];
        boolean pRoot = isSplayRoot(p);
        if (n[pb + LEFT] == x) {
            int c = n[xb + RIGHT];
            n[pb + LEFT] = c;
            if (c != 0) {
                n[c * STRIDE + PARENT] = p;
            }
            n[xb + RIGHT] = p;
        } else {
            int c = n[xb + LEFT];
            n[pb + RIGHT] = c;
            if (c != 0) {
                n[c * STRIDE + PARENT] = p;
            }
            n[xb + LEFT] = p;
        }
        n[pb + PARENT] = x;
        n[xb + PARENT] = g;
        if (!pRoot) {
            int gb = g * STRIDE;
            if (n[gb + LEFT] == p) {
                n[gb + LEFT] = x;
            } else {
                n[gb + RIGHT] = x;
            }
        }
        pull(p);
        pull(x);
    }

    private void splay(int x) {
        int top = 0;
        int y = x;
        stack[top++] = y;
        while (!isSplayRoot(y)) {
            y = n[y * STRIDE + PARENT];
            if (top == stack.length) {
                stack = Arrays.copyOf(stack, 2 * top);
            }
            stack[top++] = y;
        }
        while (top > 0) {
            push(stack[--top]);
        }
        while (!isSplayRoot(x)) {
            int p = n[x * STRIDE + PARENT];
            if (!isSplayRoot(p)) {
                int g = n[p * STRIDE + PARENT];
                boolean zigZig = (n[p * STRIDE + LEFT] == x) == (n[g * STRIDE + LEFT] == p);
                rotate(zigZig ? p : x);
            }
            rotate(x);
        }
    }

    /** Makes the root-to-x path preferred; x ends as the root of its splay tree, holding the whole tree's sums. */
    void access(int x) {
        int last = 0;
        for (int y = x; y != 0; y = n[y * STRIDE + PARENT]) {
            splay(y);
            int b = y * STRIDE;
            int r = n[b + RIGHT];
            n[b + VIRTUAL_SIZE] += n[r * STRIDE + SIZE] - n[last * STRIDE + SIZE];
            n[b + VIRTUAL_MARKS] += n[r * STRIDE + MARKS] - n[last * STRIDE + MARKS];
            n[b + RIGHT] = last;
            pull(y);
            last = y;
        }
        splay(x);
    }

    void makeRoot(int x) {
        access(x);
        n[x * STRIDE + FLAGS] ^= FLIP;
        push(x);
    }

    /** Joins the trees of a and b (which must differ) through the new single edge node x: a - x - b. */
    void linkEdge(int a, int x, int b) {
        makeRoot(a);
        hang(a, x);
        access(b);
        hang(x, b);
    }

    /** Makes tree root y (a splay root without parent) a child of splay root p, which then gets pulled. */
    private void hang(int y, int p) {
        n[y * STRIDE + PARENT] = p;
        n[p * STRIDE + VIRTUAL_SIZE] += n[y * STRIDE + SIZE];
        n[p * STRIDE + VIRTUAL_MARKS] += n[y * STRIDE + MARKS];
        pull(p);
    }

    /**
     * Removes edge node x between a and b, leaving it alone. Afterwards {@link #rootMark} and {@link #rootSize}
     * of a and of b describe their two trees until the next operation.
     */
    void cutEdge(int a, int x, int b) {
        makeRoot(a);
        access(b);
        splay(x);
        int xb = x * STRIDE;
        if (n[xb + LEFT] != a || n[xb + RIGHT] != b) {
            throw new IllegalStateException("not the edge between " + a + " and " + b + ": " + x);
        }
        n[a * STRIDE + PARENT] = 0;
        n[b * STRIDE + PARENT] = 0;
        n[xb + LEFT] = 0;
        n[xb + RIGHT] = 0;
        pull(x);
    }

    /** The mark of the tree of v while v is the root of its whole splay structure (right after a cut). */
    int rootMark(int v) {
        return n[v * STRIDE + MARKS];
    }

    /** The size of the tree of v while v is the root of its whole splay structure (right after a cut). */
    int rootSize(int v) {
        return n[v * STRIDE + SIZE];
    }

    /** The mark of x's tree: the id of its centroid, or 0 while unmarked. */
    int treeMark(int x) {
        access(x);
        return n[x * STRIDE + MARKS];
    }

    /**
     * The path query of the spanning forest, two accesses: the marks and sizes of the trees of u and v, and, if
     * they are one tree, the edge node of the heaviest edge on the path u..v: out = {mark u, size u, mark v, size
     * v, heaviest}.
     */
    void query(int u, int v, int[] out) {
        makeRoot(u);
        out[0] = n[u * STRIDE + MARKS];
        out[1] = n[u * STRIDE + SIZE];
        access(v);
        out[2] = n[v * STRIDE + MARKS];
        out[3] = n[v * STRIDE + SIZE];
        out[4] = n[v * STRIDE + HEAVIEST];
    }

    void setMark(int x, int value) {
        access(x);
        n[x * STRIDE + MARK] = value;
        pull(x);
    }

    /** The vertices of y's subtree when the tree is rooted at r (r and y distinct, same tree). */
    int subtreeSize(int r, int y) {
        makeRoot(r);
        access(y);
        return n[y * STRIDE + VIRTUAL_SIZE] + 1;
    }

    /**
     * The edge node between x and its parent when the tree is rooted at r, or 0 if x is r: after the access, x's
     * predecessor on the root path.
     */
    int parentEdge(int r, int x) {
        makeRoot(r);
        access(x);
        return predecessor(x);
    }

    /** The in-order predecessor of splay root x (splayed to the top), or 0. */
    private int predecessor(int x) {
        int e = n[x * STRIDE + LEFT];
        if (e == 0) {
            return 0;
        }
        push(e);
        while (n[e * STRIDE + RIGHT] != 0) {
            e = n[e * STRIDE + RIGHT];
            push(e);
        }
        splay(e);
        return e;
    }

    /**
     * The deepest vertex x on the path from c to w, the tree rooted at c, with 2·|subtree(x)| &gt;= the tree's
     * size, and whether it is exactly half (bit 32): a binary search down the splay tree of the path, subtree
     * sizes being suffix sums of (vertex + virtual) along it (thesis §4.5.4, the "extended path" walk, in
     * O(log n)).
     */
    long deepestHalf(int c, int w) {
        makeRoot(c);
        access(w);
        int total = n[w * STRIDE + SIZE];
        int t = w;
        long acc = 0;
        int best = 0;
        long bestSize = 0;
        int last = w;
        while (t != 0) {
            push(t);
            last = t;
            int b = t * STRIDE;
            boolean vertex = (n[b + FLAGS] & VERTEX) != 0;
            long s = acc + n[n[b + RIGHT] * STRIDE + SIZE] + n[b + VIRTUAL_SIZE] + (vertex ? 1 : 0);
            if (2 * s >= total) {
                if (vertex) {
                    best = t;
                    bestSize = s;
                }
                t = n[b + RIGHT];
            } else {
                acc = s;
                t = n[b + LEFT];
            }
        }
        splay(last);
        return (2 * bestSize == total ? 1L << 32 : 0) | best;
    }

    /** The vertex before x on the path from the current root, or 0. */
    int previousVertex(int x) {
        access(x);
        int e = predecessor(x);
        return e == 0 ? 0 : predecessor(e);
    }
}
