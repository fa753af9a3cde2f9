package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.collect.IntArrays;
import io.tracesync.core.graph.LinkCutTrees;
import java.util.function.IntConsumer;

/**
 * The reference node of every tree, by its {@link ReferenceRule}: by default the node with the most links taking
 * part in the forest, of those the smallest name; or the centroid. [Jabbarifar 2013, ch. 4] takes the vertex
 * minimizing the total path cost to all others, which for positive weights is the centroid whatever the weights
 * are (Lemma 1: each edge contributes its weight times the vertices on its far side, so the reference belongs on the
 * heavier side of every edge). But in a large network whose links' accuracies keep moving, the spanning tree changes
 * shape at every emission and its centroid with it (so does any vertex chosen by its place in the tree: the
 * smallest name among those whose branches hold at most 15/16 of the tree moved at 55 of 60 emissions of a
 * 10,000-node network), and each move re-bases every factor of the tree. The number of links moves only when links
 * start or stop taking part. A pinned node is its tree's reference instead, whenever it is in the tree. The
 * reference is a function of the forest alone, whatever sequence of changes led to it.
 *
 * <p>The centroid is held as the mark of its tree in {@link LinkCutTrees} (which side of a cut, or whether on a
 * path) and by its tree's label (which centroid, in O(1)), and serves as the tree's handle. After two trees join,
 * or a subtree moves within its tree, the new centroid lies on a known path (from the old centroid towards the part
 * that grew; Lemma 2 and §4.5.5) and is found by one binary search down that path in O(log n), [Jabbarifar 2013]'s
 * DescendantSize walk along the "extended path". After a split, each side's centroid is found by walking from a
 * known vertex towards the heavier neighbour, O(steps · degree · log n).
 *
 * <p>Between two {@link #settle}s each tree holds a reference carried through its changes (the larger side's after
 * a join; a side's centroid after a split that took the reference away), against which the forest reports the
 * vertices whose path to it changed; {@link #settle} then chooses the reference of every tree changed since by the
 * rule: the centroid at once, the node with the most links by one walk over the tree, O(its size).
 */
final class ReferenceNodes {

    private final SpanningForest forest;
    private final LinkCutTrees lct;
    private final NetworkStats stats;
    private final ReferenceRule rule;
    private int pinned;
    /** The centroid of every tree, by its {@link MinimaxBounds} label. */
    private int[] byLabel = new int[16];
    /** By centroid: its tree's reference. */
    private int[] held = new int[16];
    /** The centroids of the trees changed since the last {@link #settle}. */
    private int[] touched = new int[16];
    private int touchedCount;
    private int[] touchedStamp = new int[16];
    private int stamp = 1;

    ReferenceNodes(SpanningForest forest, LinkCutTrees lct, NetworkStats stats, ReferenceRule rule) {
        this.forest = forest;
        this.lct = lct;
        this.stats = stats;
        this.rule = rule;
    }

    /** A new vertex, already labelled: its own centroid and reference. */
    void addVertex(int v) {
        held = IntArrays.grow(held, v + 1);
        held[v] = v;
        mark(v);
        record(v);
    }

    /** Records c as the centroid of its tree, once the tree's labels are settled. */
    void record(int c) {
        int l = forest.bounds().label(c);
        byLabel = IntArrays.grow(byLabel, l + 1);
        byLabel[l] = c;
    }

    /**
     * The tree whose centroid is c changed what its rule reads (its vertices, a vertex's links, its centroid): its
     * reference is chosen again at the next settle.
     */
    void touch(int c) {
        touchedStamp = IntArrays.grow(touchedStamp, c + 1);
        if (touchedStamp[c] != stamp) {
            touchedStamp[c] = stamp;
            touched = IntArrays.grow(touched, touchedCount + 1);
            touched[touchedCount++] = c;
        }
    }

    void mark(int c) {
        lct.setMark(c, true);
    }

    void unmark(int c) {
        lct.setMark(c, false);
    }

    /**
     * Moves the mark of a tree whose centroid was old, its labels settled, to c; the reference stays until the next
     * settle.
     */
    void move(int old, int c) {
        if (old != c) {
            unmark(old);
            mark(c);
            held[c] = held[old];
            if (rule == ReferenceRule.CENTROID || touchedStamp.length > old && touchedStamp[old] == stamp) {
                touch(c);
            }
        }
        record(c);
    }

    /**
     * Two trees of centroids cu and cv joined, their labels settled, with centroid c: the joined tree keeps
     * reference r (one of theirs) until the next settle.
     */
    void joined(int cu, int cv, int c, int r) {
        if (c != cu) {
            unmark(cu);
        }
        if (c != cv) {
            unmark(cv);
        }
        if (c != cu && c != cv) {
            mark(c);
        }
        held[c] = r;
        record(c);
        touch(c);
    }

    /**
     * A tree of centroid c split into trees of centroids c1 (holding c) and c2, labels settled: the side holding
     * the old reference keeps it, the other one takes its centroid until the next settle.
     */
    void split(int c, int c1, int c2) {
        int r = held[c];
        move(c, c1);
        mark(c2);
        boolean withFirst = forest.bounds().sameTree(r, c1);
        held[c1] = withFirst ? r : c1;
        held[c2] = withFirst ? c2 : r;
        record(c2);
        touch(c1);
        touch(c2);
    }

    /** Pins v (0: none); the trees of the old and the new pinned vertex choose their reference at the next settle. */
    void pin(int v) {
        if (pinned != 0) {
            touch(centroidOf(pinned));
        }
        pinned = v;
        if (v != 0) {
            touch(centroidOf(v));
        }
    }

    int centroidOf(int x) {
        return byLabel[forest.bounds().label(x)];
    }

    /** The reference of the tree whose centroid is c. */
    int effective(int c) {
        return held[c];
    }

    int referenceOf(int x) {
        return effective(centroidOf(x));
    }

    /**
     * Chooses the reference of every tree changed since the last settle by the rule; passes each new one to
     * {@code dirty} (its whole tree needs new factors).
     */
    void settle(IntConsumer dirty) {
        long t0 = stats.clock();
        for (int i = 0; i < touchedCount; i++) {
            int c = touched[i];
            if (centroidOf(c) != c) {
                continue; // no longer a centroid: its tree's centroid since was touched too
            }
            int r = pinned != 0 && forest.bounds().sameTree(pinned, c) ? pinned
                    : rule == ReferenceRule.CENTROID ? c : mostLinked(c);
            if (r != held[c]) {
                held[c] = r;
                stats.referenceChanges++;
                dirty.accept(r);
            }
        }
        touchedCount = 0;
        stamp++;
        stats.referenceNanos += stats.clock() - t0;
    }

    /**
     * The vertex of c's tree with the most links in the forest's graph, of those the smallest name; a hub
     * ({@link Backbone#isHub}) only in a tree of hubs: a hub's links are the ties of the ends whose regions answered
     * to its reference, so in the backbone the last answer's reference would have the most and keep it whatever the
     * links, the choice a matter of the exchanges' history.
     */
    private int mostLinked(int c) {
        int best = c;
        boolean bestHub = Backbone.isHub(forest.name(c));
        for (int k = 0, n = forest.enumerateTree(c); k < n; k++) {
            int v = forest.enumerated(k);
            boolean hub = Backbone.isHub(forest.name(v));
            int h = Boolean.compare(bestHub, hub);
            int d = h != 0 ? h : forest.degree(v) - forest.degree(best);
            if (d > 0 || d == 0 && forest.name(v).compareTo(forest.name(best)) < 0) {
                best = v;
                bestHub = hub;
            }
        }
        return best;
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
