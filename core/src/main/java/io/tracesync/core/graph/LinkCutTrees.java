package io.tracesync.core.graph;

import java.util.Arrays;

/**
 * Sleator–Tarjan link-cut trees over splay trees, O(log n) amortized per operation, with three aggregates:
 * <ul>
 *   <li>path maximum of edge weights: every spanning-forest edge is a node of its own between its two vertices,
 *       so the heaviest edge on a path is a path aggregate (the classic dynamic MST construction);</li>
 *   <li>subtree sizes, counting vertices only, through "virtual" sums of the subtrees hanging off the preferred
 *       path (DescendantSize, [Jabbarifar 2013, §4.4], for any root in O(log n));</li>
 *   <li>the number of marked vertices over a whole tree and along the preferred path: the spanning forest marks
 *       one vertex per tree, its centroid (two for a moment while trees join), so one access tells on which side
 *       of a cut, and whether on a path, the centroid is.</li>
 * </ul>
 * Each node's fields share one 32-byte slot of a single int array, so visiting a node costs one cache miss. To
 * fit, a weight is held there as the nearest float, which orders weights as they are ordered or makes them equal
 * (rounding is monotone): only then are the exact weights, kept beside, compared, and then the payloads. Sizes
 * and counts share one word, summed at once. Vertex v (ids 1, 2, 3, ...) is node 2v; an edge node takes the slot
 * 2k + 1 beside vertex k's, that of one of its ends when free, so that an edge and an end share a cache line and
 * the trees of a 60,000-vertex forest take 3.8 MB. Node 0 is the null sentinel; vertices are never freed, edge
 * nodes are recycled.
 */
public final class LinkCutTrees {

    /** Ranks two edges of equal weight by their payloads; positive if the first is heavier. */
    public interface TieBreak {
        int compare(int payload1, int payload2);
    }

    /** Vertices at most (sizes have 26 bits). */
    private static final int MAX_VERTICES = (1 << 26) - 1;
    private static final int STRIDE = 8;
    /**
     * Puts node 0 at byte 64 of the array object, so that in (large, region-aligned) arrays each vertex's node
     * (2v) starts a 64-byte line and the edge slot beside it (2v + 1) fills the line's second half.
     */
    private static final int BASE = 12;
    private static final int LEFT = BASE;
    private static final int RIGHT = BASE + 1;
    /** A splay child's parent; a splay root's path-parent negated (0 for a tree root), so one field tells. */
    private static final int PARENT = BASE + 2;
    /** Over the splay subtree: vertices (with the virtual ones), marks (likewise) and marks on the path. */
    private static final int SUMS = BASE + 3;
    /** The node's own: vertices and marks hanging off it (virtual), its mark, vertex and reversal flags. */
    private static final int OWN = BASE + 4;
    private static final int HEAVIEST = BASE + 5;
    /** As float bits; those of a vertex are NO_EDGE. */
    private static final int WEIGHT = BASE + 6;
    private static final int HEAVIEST_WEIGHT = BASE + 7;
    private static final int SIZE_MASK = MAX_VERTICES;
    private static final int MARKS_SHIFT = 26;
    private static final int PATH_MARKS_SHIFT = 28;
    /** A size and a count of marks as one summand of SUMS or OWN. */
    private static final int COUNTS = SIZE_MASK | 3 << MARKS_SHIFT;
    private static final int MARK = 1 << 28;
    private static final int VERTEX = 1 << 29;
    private static final int FLIP = 1 << 30;
    /** Added to SUMS by a marked vertex: one mark in the tree, one on the path. */
    private static final int OWN_MARK = 1 << MARKS_SHIFT | 1 << PATH_MARKS_SHIFT;
    /** The weight bits of a vertex: below those of every non-negative weight. */
    private static final int NO_EDGE = -1;

    private final TieBreak ties;
    private int[] n = new int[STRIDE * 64];
    /** Per edge node: its payload and its exact weight. */
    private int[] payloads = new int[64];
    private double[] weights = new double[64];
    private int vertices;
    /** Per vertex k: whether the edge slot beside its node (2k + 1) holds an edge node. */
    private boolean[] slotUsed = new boolean[32];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int[] stack = new int[64];
    /** The lowest common ancestor and the splay trees below it of the last {@link #expose} after an access. */
    private int lca;
    private int belowU;
    private int belowX;
    /** The last {@link #heaviestOnPath}(u, v): the ends, the two parts below the lca, the whole tree. */
    private int pathU;
    private int pathV;
    private int sizeU;
    private int sizeV;
    private int pathMarksU;
    private int pathMarksV;
    private int pathMarks;
    private int pathTreeSize;
    private int pathTreeMarks;
    /** The heaviest edge node on that path and its weight's float bits. */
    private int pathHeaviest;
    private int pathHeaviestBits;
    /** After {@link #cutOnPath}: the splay root of the part that moves, which side of u..v it is, its sums. */
    private int moved;
    private int movedSide;
    private int movedSize;
    private int movedMarks;

    public LinkCutTrees(TieBreak ties) {
        this.ties = ties;
        n[HEAVIEST_WEIGHT] = NO_EDGE;
    }

    /** A new single-vertex tree, unmarked; vertex ids are 1, 2, 3, ... */
    public int newVertex() {
        if (vertices == MAX_VERTICES) {
            throw new IllegalStateException("more than " + MAX_VERTICES + " nodes");
        }
        int v = ++vertices;
        int x = 2 * v;
        if ((x + 2) * STRIDE + BASE > n.length) {
            n = Arrays.copyOf(n, Math.max((x + 2) * STRIDE + BASE, 2 * n.length));
            payloads = Arrays.copyOf(payloads, n.length / STRIDE);
            weights = Arrays.copyOf(weights, n.length / STRIDE);
            slotUsed = Arrays.copyOf(slotUsed, n.length / STRIDE / 2);
        }
        n[x * STRIDE + OWN] = VERTEX;
        n[x * STRIDE + WEIGHT] = NO_EDGE;
        pull(x);
        pushFreeSlot(v);
        return v;
    }

    /**
     * A new edge node, alone, carrying the edge's id and weight, for an edge between vertices a and b: in the
     * slot beside a's node if free, else beside b's, else in any free one (there is always one: a forest has
     * fewer edges than vertices).
     */
    public int newEdge(int payload, double w, int a, int b) {
        int k = !slotUsed[a] ? a : !slotUsed[b] ? b : popFreeSlot();
        slotUsed[k] = true;
        int x = 2 * k + 1;
        Arrays.fill(n, x * STRIDE + BASE, x * STRIDE + BASE + STRIDE, 0);
        payloads[x] = payload;
        weights[x] = w;
        n[x * STRIDE + WEIGHT] = weightBits(w);
        pull(x);
        return x;
    }

    /** The weight as the bits of the nearest float: non-negative, so ordered like the weights as ints. */
    private static int weightBits(double w) {
        return Float.floatToRawIntBits((float) w + 0.0f);
    }

    /** Recycles an edge node that is alone in its tree. */
    public void free(int x) {
        slotUsed[x >>> 1] = false;
        pushFreeSlot(x >>> 1);
    }

    /**
     * Notes that the edge slot beside vertex k's node is free. The list may also hold slots taken since (they are
     * skipped when popped); it is rebuilt from {@link #slotUsed} when it grows beyond twice the vertices.
     */
    private void pushFreeSlot(int k) {
        if (freeCount == freeSlots.length) {
            if (freeCount > 2 * vertices) {
                freeCount = 0;
                for (int v = 1; v <= vertices; v++) {
                    if (!slotUsed[v]) {
                        freeSlots[freeCount++] = v;
                    }
                }
            } else {
                freeSlots = Arrays.copyOf(freeSlots, 2 * freeCount);
            }
        }
        freeSlots[freeCount++] = k;
    }

    private int popFreeSlot() {
        while (true) {
            int k = freeSlots[--freeCount];
            if (!slotUsed[k]) {
                return k;
            }
        }
    }

    /** One more than the largest vertex id handed out so far. */
    public int capacity() {
        return vertices + 1;
    }

    public int payload(int x) {
        return payloads[x];
    }

    /** Changes an edge node's weight. */
    public void setWeight(int x, double w) {
        access(x);
        weights[x] = w;
        n[x * STRIDE + WEIGHT] = weightBits(w);
        pull(x);
    }

    private int size(int x) {
        return n[x * STRIDE + SUMS] & SIZE_MASK;
    }

    private int marks(int x) {
        return n[x * STRIDE + SUMS] >>> MARKS_SHIFT & 3;
    }

    private int marksOnPath(int x) {
        return n[x * STRIDE + SUMS] >>> PATH_MARKS_SHIFT & 3;
    }

    private int virtualSize(int x) {
        return n[x * STRIDE + OWN] & SIZE_MASK;
    }

    /**
     * Recomputes x's aggregates from its own fields and its two splay children: the sums in one addition, the
     * heaviest edge by float bits, which order non-negative weights as ints; NO_EDGE is below them all. Small
     * enough for the JIT to inline into the rotations; equal floats go to {@link #heavierTie}.
     */
    private void pull(int x) {
        int[] n = this.n;
        int b = x * STRIDE;
        int lb = n[b + LEFT] * STRIDE;
        int rb = n[b + RIGHT] * STRIDE;
        int own = n[b + OWN];
        int vertex = own >>> 29 & 1;
        n[b + SUMS] = n[lb + SUMS] + n[rb + SUMS] + (own & COUNTS) + vertex + ((own & MARK) == 0 ? 0 : OWN_MARK);
        int h = x & (vertex - 1);
        int hw = n[b + WEIGHT];
        int lw = n[lb + HEAVIEST_WEIGHT];
        if (lw > hw || lw == hw && lw != NO_EDGE && heavierTie(n[lb + HEAVIEST], h)) {
            h = n[lb + HEAVIEST];
            hw = lw;
        }
        int rw = n[rb + HEAVIEST_WEIGHT];
        if (rw > hw || rw == hw && rw != NO_EDGE && heavierTie(n[rb + HEAVIEST], h)) {
            h = n[rb + HEAVIEST];
            hw = rw;
        }
        n[b + HEAVIEST] = h;
        n[b + HEAVIEST_WEIGHT] = hw;
    }

    /** Whether edge node x1 ranks above edge node x2 of the same float weight: by exact weight, then payload. */
    private boolean heavierTie(int x1, int x2) {
        return ranksAbove(weights[x1], payloads[x1], x2);
    }

    /** Whether an edge of weight w and payload p ranks above edge node x: by exact weight, then payload. */
    private boolean ranksAbove(double w, int p, int x) {
        double wx = weights[x];
        return w != wx ? w > wx : ties.compare(p, payloads[x]) > 0;
    }

    private void push(int x) {
        int b = x * STRIDE;
        if ((n[b + OWN] & FLIP) != 0) {
            int l = n[b + LEFT];
            int r = n[b + RIGHT];
            n[b + LEFT] = r;
            n[b + RIGHT] = l;
            if (l != 0) {
                n[l * STRIDE + OWN] ^= FLIP;
            }
            if (r != 0) {
                n[r * STRIDE + OWN] ^= FLIP;
            }
            n[b + OWN] ^= FLIP;
        }
    }

    /** Rotates x above its parent p, pulling p; x's own aggregates are left for the end of the splay. */
    private void rotate(int x) {
        int xb = x * STRIDE;
        int p = n[xb + PARENT];
        int pb = p * STRIDE;
        int g = n[pb + PARENT];
        if (n[pb + LEFT] == x) {
            int c = n[xb + RIGHT];
            n[pb + LEFT] = c;
            n[c * STRIDE + PARENT] = p;
            n[xb + RIGHT] = p;
        } else {
            int c = n[xb + LEFT];
            n[pb + RIGHT] = c;
            n[c * STRIDE + PARENT] = p;
            n[xb + LEFT] = p;
        }
        n[pb + PARENT] = x;
        n[xb + PARENT] = g;
        if (g > 0) {
            int gb = g * STRIDE;
            if (n[gb + LEFT] == p) {
                n[gb + LEFT] = x;
            } else {
                n[gb + RIGHT] = x;
            }
        }
        pull(p);
    }

    private void splay(int x) {
        int top = 0;
        int y = x;
        stack[top++] = y;
        while (n[y * STRIDE + PARENT] > 0) {
            y = n[y * STRIDE + PARENT];
            if (top == stack.length) {
                stack = Arrays.copyOf(stack, 2 * top);
            }
            stack[top++] = y;
        }
        while (top > 0) {
            push(stack[--top]);
        }
        if (y == x) {
            return;
        }
        int p;
        while ((p = n[x * STRIDE + PARENT]) > 0) {
            int g = n[p * STRIDE + PARENT];
            if (g > 0) {
                boolean zigZig = (n[p * STRIDE + LEFT] == x) == (n[g * STRIDE + LEFT] == p);
                rotate(zigZig ? p : x);
            }
            rotate(x);
        }
        pull(x);
    }

    /** Makes the root-to-x path preferred; x ends as the root of its splay tree, holding the whole tree's sums. */
    private void access(int x) {
        expose(x);
        splay(x);
    }

    /**
     * The loop of {@link #access} without its final splay. Its last step splays the vertex where x's root path
     * meets the previously preferred one, which was root..u after an access(u): their lowest common ancestor
     * (Sleator–Tarjan), recorded in {@link #lca}, with the splay trees of the two paths below it, towards u
     * ({@link #belowU}, left hanging from it) and towards x ({@link #belowX}, its new right child).
     */
    private void expose(int x) {
        int last = 0;
        int y = x;
        int r;
        while (true) {
            splay(y);
            int b = y * STRIDE;
            r = n[b + RIGHT];
            n[r * STRIDE + PARENT] = -y;
            n[last * STRIDE + PARENT] = y;
            n[b + OWN] += (n[r * STRIDE + SUMS] & COUNTS) - (n[last * STRIDE + SUMS] & COUNTS);
            n[b + RIGHT] = last;
            pull(y);
            int up = -n[b + PARENT];
            if (up == 0) {
                break;
            }
            last = y;
            y = up;
        }
        lca = y;
        belowU = r;
        belowX = last;
    }

    private void makeRoot(int x) {
        access(x);
        n[x * STRIDE + OWN] ^= FLIP;
        push(x);
    }

    /** Joins the trees of vertices a and b (which must differ) through the new single edge node x: a - x - b. */
    public void linkEdge(int a, int x, int b) {
        int an = 2 * a;
        int bn = 2 * b;
        makeRoot(an);
        hang(an, x);
        access(bn);
        hang(x, bn);
    }

    /** Makes tree root y (a splay root without parent) a child of splay root p, which then gets pulled. */
    private void hang(int y, int p) {
        n[y * STRIDE + PARENT] = -p;
        n[p * STRIDE + OWN] += n[y * STRIDE + SUMS] & COUNTS;
        pull(p);
    }

    /**
     * Removes edge node x between a and b, leaving it alone. Afterwards {@link #rootMarks} and {@link #rootSize}
     * of a and of b describe their two trees until the next operation.
     */
    public void cutEdge(int a, int x, int b) {
        int an = 2 * a;
        int bn = 2 * b;
        makeRoot(an);
        access(bn);
        splay(x);
        int xb = x * STRIDE;
        if (n[xb + LEFT] != an || n[xb + RIGHT] != bn) {
            throw new IllegalStateException("not the edge between vertices " + a + " and " + b + ": " + x);
        }
        n[an * STRIDE + PARENT] = 0;
        n[bn * STRIDE + PARENT] = 0;
        n[xb + LEFT] = 0;
        n[xb + RIGHT] = 0;
        pull(x);
    }

    /**
     * Right after {@link #heaviestOnPath}(u, v), takes out its edge node x, leaving it alone. The part below x,
     * seen from the tree's root, moves: it is the subtree of x's child, whose splay tree is that of the path from
     * there to u or v. The sides' sizes, marks and branches are then told by {@link #sideSize},
     * {@link #sideMarks}, {@link #onSidePath} and {@link #branchSize}; {@link #linkAcross} must follow. No
     * access: the cycle case of the spanning forest touches only the paths just queried.
     */
    public void cutOnPath(int x) {
        splay(x);
        int xb = x * STRIDE;
        int pathParent = n[xb + PARENT];
        moved = n[xb + RIGHT];
        n[n[xb + LEFT] * STRIDE + PARENT] = pathParent;
        n[moved * STRIDE + PARENT] = 0;
        n[xb + LEFT] = 0;
        n[xb + RIGHT] = 0;
        n[xb + PARENT] = 0;
        pull(x);
        movedSize = size(moved);
        movedMarks = marks(moved);
        // x on the root path: the part towards v moves; else x hung from the lca, on the way to u
        movedSide = pathParent == 0 ? 1 : 0;
        if (pathParent != 0) {
            int w = -pathParent;
            splay(w);
            n[w * STRIDE + OWN] -= movedSize | movedMarks << MARKS_SHIFT;
            pull(w);
        }
    }

    /** Vertices on side s (0: u, 1: v) after {@link #cutOnPath}. */
    public int sideSize(int s) {
        return s == movedSide ? movedSize : pathTreeSize - movedSize;
    }

    /** The marked vertices of side s's tree after {@link #cutOnPath}. */
    public int sideMarks(int s) {
        return s == movedSide ? movedMarks : pathTreeMarks - movedMarks;
    }

    /**
     * Whether the tree's marked vertex, one before {@link #cutOnPath}, lies on side s's part of the path u..v
     * after it.
     */
    public boolean onSidePath(int s) {
        return pathMarks > 0 && sideMarks(s) > 0;
    }

    /**
     * For vertex c on side s's part of the path, other than that side's end of the path (u for side 0, v for
     * side 1), the vertices beyond c towards that end together with everything hanging off them: the branch of c
     * containing that end. After splaying c, its right subtree is the path below it with what hangs off that;
     * the end lies below c unless c sits between the lca and the cut edge, where the branch is all the rest.
     */
    public int branchSize(int s, int c) {
        int cn = 2 * c;
        boolean endBelowC = s == movedSide || (s == 0 ? pathMarksU : pathMarksV) > 0;
        if (!endBelowC && cn == lca) {
            return s == 0 ? sizeU : sizeV;
        }
        splay(cn);
        if (s == movedSide) {
            moved = cn;
        }
        int below = size(n[cn * STRIDE + RIGHT]);
        return endBelowC ? below : sideSize(s) - 1 - virtualSize(cn) - below;
    }

    /**
     * Completes {@link #cutOnPath}: the moved part is re-rooted at its end of the path by reversing that path,
     * and hung from the other end through the new single edge node e.
     */
    public void linkAcross(int e) {
        int r = moved;
        n[r * STRIDE + OWN] ^= FLIP;
        n[e * STRIDE + RIGHT] = r;
        n[r * STRIDE + PARENT] = e;
        pull(e);
        int end = movedSide == 0 ? pathV : pathU;
        access(end);
        hang(e, end);
    }

    /** The marked vertices of the tree of v while v is the root of its whole splay structure (after a cut). */
    public int rootMarks(int v) {
        return marks(2 * v);
    }

    /** The size of the tree of v while v is the root of its whole splay structure (after a cut, or access(v)). */
    public int rootSize(int v) {
        return size(2 * v);
    }

    /** The marked vertices of v's tree. */
    public int treeMarks(int v) {
        int x = 2 * v;
        access(x);
        return marks(x);
    }

    /**
     * The path query of the spanning forest: the edge node of the heaviest edge on the path u..v of one tree,
     * without re-rooting. access(u) then the access loop from v meet at their lowest common ancestor w; the
     * path is the splay tree below w towards u, w (a vertex, no weight) and the one below w towards v
     * (Sleator–Tarjan). Records what {@link #cutOnPath} needs; v is left the root of the whole tree's splay tree.
     */
    public int heaviestOnPath(int u, int v) {
        pathU = 2 * u;
        pathV = 2 * v;
        access(pathU);
        expose(pathV);
        int ub = belowU * STRIDE;
        int vb = belowX * STRIDE;
        sizeU = size(belowU);
        sizeV = size(belowX);
        pathMarksU = marksOnPath(belowU);
        pathMarksV = marksOnPath(belowX);
        pathMarks = pathMarksU + pathMarksV + (n[lca * STRIDE + OWN] & MARK) / MARK;
        int wu = n[ub + HEAVIEST_WEIGHT];
        int wv = n[vb + HEAVIEST_WEIGHT];
        int hu = n[ub + HEAVIEST];
        int hv = n[vb + HEAVIEST];
        splay(pathV);
        pathTreeSize = size(pathV);
        pathTreeMarks = marks(pathV);
        boolean towardsU = wu > wv || wu == wv && wu != NO_EDGE && heavierTie(hu, hv);
        pathHeaviest = towardsU ? hu : hv;
        pathHeaviestBits = towardsU ? wu : wv;
        return pathHeaviest;
    }

    /**
     * Whether an edge of weight w and payload p ranks above the heaviest edge {@link #heaviestOnPath} last found:
     * by the float bits already read, the exact weight and the payloads only when those are equal.
     */
    public boolean heavierThanPathMax(double w, int p) {
        int bits = weightBits(w);
        if (bits != pathHeaviestBits) {
            return bits > pathHeaviestBits;
        }
        return ranksAbove(w, p, pathHeaviest);
    }

    /** Marks or unmarks vertex v; a tree holds at most two marked vertices (counts have two bits). */
    public void setMark(int v, boolean marked) {
        int x = 2 * v;
        access(x);
        n[x * STRIDE + OWN] = marked ? n[x * STRIDE + OWN] | MARK : n[x * STRIDE + OWN] & ~MARK;
        pull(x);
    }

    /** The vertices of y's subtree when the tree is rooted at r (r and y distinct, same tree). */
    public int subtreeSize(int r, int y) {
        makeRoot(2 * r);
        access(2 * y);
        return virtualSize(2 * y) + 1;
    }

    /**
     * The edge node between x and its parent when the tree is rooted at r, or 0 if x is r: after the access, x's
     * predecessor on the root path.
     */
    public int parentEdge(int r, int x) {
        makeRoot(2 * r);
        access(2 * x);
        return predecessor(2 * x);
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
     * sizes being suffix sums of (vertex + virtual) along it ([Jabbarifar 2013, §4.5.4], the "extended path" walk, in
     * O(log n)).
     */
    public long deepestHalf(int c, int w) {
        makeRoot(2 * c);
        access(2 * w);
        int total = size(2 * w);
        int t = 2 * w;
        long acc = 0;
        int best = 0;
        long bestSize = 0;
        int last = t;
        while (t != 0) {
            push(t);
            last = t;
            int b = t * STRIDE;
            boolean vertex = (n[b + OWN] & VERTEX) != 0;
            long s = acc + size(n[b + RIGHT]) + virtualSize(t) + (vertex ? 1 : 0);
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
        return (2 * bestSize == total ? 1L << 32 : 0) | best / 2;
    }

    /** The vertex before v on the path from the current root, or 0. */
    public int previousVertex(int v) {
        access(2 * v);
        int e = predecessor(2 * v);
        return e == 0 ? 0 : predecessor(e) / 2;
    }
}
