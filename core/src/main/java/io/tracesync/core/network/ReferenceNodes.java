package io.tracesync.core.network;

/**
 * The reference node of every tree [Jabbarifar 2013, ch. 4]: the vertex minimizing the total path cost to all others,
 * which for positive weights is the centroid whatever the weights are (Lemma 1: each edge contributes its weight times
 * the vertices on its far side, so the reference belongs on the heavier side of every edge). Of two centroids, the
 * smaller name. A pinned node is its tree's reference instead, whenever it is in the tree.
 *
 * <p>The centroid is held as the mark of its tree in {@link LinkCutTrees} (which side of a cut, or whether on a
 * path) and by its tree's label (which centroid, in O(1)). After two trees join, or a subtree
 * moves within its tree, the new centroid lies on a known path (from the old centroid towards the part that
 * grew; Lemma 2 and §4.5.5) and is found by one binary search down that path in O(log n), [Jabbarifar 2013]'s
 * DescendantSize walk along the "extended path". After a split, each side's centroid is found by walking from a
 * known vertex towards the heavier neighbour, O(steps · degree · log n).
 */
final class ReferenceNodes {

    private final SpanningForest forest;
    private final LinkCutTrees lct;
    private int pinned;
    /** The centroid of every tree, by its {@link MinimaxBounds} label. */
    private int[] byLabel = new int[16];

    ReferenceNodes(SpanningForest forest, LinkCutTrees lct) {
        this.forest = forest;
        this.lct = lct;
    }

    /** A new vertex, already labelled: its own centroid. */
    void addVertex(int v) {
        mark(v);
        record(v);
    }

    /** Records c as the centroid of its tree, once the tree's labels are settled. */
    void record(int c) {
        int l = forest.bounds().label(c);
        byLabel = IntArrays.grow(byLabel, l + 1);
        byLabel[l] = c;
    }

    void mark(int c) {
        lct.setMark(c, true);
    }

    void unmark(int c) {
        lct.setMark(c, false);
    }

    /** Moves the mark of a tree whose centroid was old, its labels settled, to its new centroid. */
    void move(int old, int c) {
        if (old != c) {
            unmark(old);
            mark(c);
        }
        record(c);
    }

    /** The pinned vertex, or 0. */
    int pinned() {
        return pinned;
    }

    void pin(int v) {
        pinned = v;
    }

    int centroidOf(int x) {
        return byLabel[forest.bounds().label(x)];
    }

    /** The reference of the tree whose centroid is c. */
    int effective(int c) {
        return pinned != 0 && centroidOf(pinned) == c ? pinned : c;
    }

    int referenceOf(int x) {
        return effective(centroidOf(x));
    }

    /**
     * The centroid of a tree of n vertices known to lie on the path from c to w, every subtree hanging off the
     * path (rooted at c) having fewer than n/2 vertices, except at c where one of exactly n/2 is allowed if c was
     * preferred to its root before. The deepest vertex x whose subtree holds at least half the tree is a centroid;
     * if it holds exactly half, x's predecessor on the path is the other one.
     */
    int searchPath(int c, int w) {
        long found = lct.deepestHalf(c, w);
        int x = (int) found;
        if ((found >>> 32) != 0) {
            int p = lct.previousVertex(x);
            if (p != 0 && forest.name(p).compareTo(forest.name(x)) < 0) {
                return p;
            }
        }
        return x;
    }

    /**
     * The centroid of start's tree of n vertices: from start, step to the neighbour whose side holds more than
     * half of the tree until there is none (the side just left always holds less than half).
     */
    int walk(int start, int n) {
        IncidenceLists tree = forest.treeEdges();
        int v = start;
        int from = 0;
        while (true) {
            int next = 0;
            int tie = 0;
            for (int i = 0, k = tree.count(v); i < k; i++) {
                int y = tree.neighbor(v, i);
                if (y == from) {
                    continue;
                }
                long s = lct.subtreeSize(v, y);
                if (2 * s > n) {
                    next = y;
                    break;
                }
                if (2 * s == n) {
                    tie = y;
                }
            }
            if (next == 0) {
                return tie != 0 && forest.name(tie).compareTo(forest.name(v)) < 0 ? tie : v;
            }
            from = v;
            v = next;
        }
    }
}
