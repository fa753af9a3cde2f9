package io.tracesync.core.network;

import io.tracesync.core.collect.LongIntMap;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The links of the spanning forest's graph by id: each id's two ends (vertex ids, a the smaller name's), weight and
 * link-cut tree edge node (0 while not in the forest), the id of each pair of ends, and the ids freed for reuse. Ids
 * start at 1; a free id has end a 0 (vertex ids start at 1 too).
 */
final class EdgeTable {

    private final LongIntMap ids = new LongIntMap();
    private int[] endA = new int[16];
    private int[] endB = new int[16];
    private double[] weight = new double[16];
    private int[] node = new int[16];
    private int next = 1;
    private int[] free = new int[16];
    private int freeCount;

    /** The id of the link between u and v, or 0. */
    int id(int u, int v) {
        return ids.get(pairKey(u, v));
    }

    /** A new link a~b of weight w, out of the forest; its id. */
    int add(int a, int b, double w) {
        int e;
        if (freeCount > 0) {
            e = free[--freeCount];
        } else {
            e = next++;
            if (e >= endA.length) {
                int n = Math.max(e + 1, 2 * endA.length);
                endA = Arrays.copyOf(endA, n);
                endB = Arrays.copyOf(endB, n);
                weight = Arrays.copyOf(weight, n);
                node = Arrays.copyOf(node, n);
            }
        }
        endA[e] = a;
        endB[e] = b;
        weight[e] = w;
        node[e] = 0;
        ids.put(pairKey(a, b), e);
        return e;
    }

    /** Frees link e's id for reuse. */
    void free(int e) {
        ids.remove(pairKey(endA[e], endB[e]));
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, 2 * freeCount);
        }
        free[freeCount++] = e;
        endA[e] = 0;
    }

    int a(int e) {
        return endA[e];
    }

    int b(int e) {
        return endB[e];
    }

    double weight(int e) {
        return weight[e];
    }

    void setWeight(int e, double w) {
        weight[e] = w;
    }

    /** Link e's link-cut tree edge node, 0 while it is not in the forest. */
    int node(int e) {
        return node[e];
    }

    void setNode(int e, int x) {
        node[e] = x;
    }

    /** One more than the largest id handed out: links are 1 ≤ e &lt; limit(), live or free. */
    int limit() {
        return next;
    }

    /** Whether id e is a link now (not a free id). */
    boolean live(int e) {
        return endA[e] != 0;
    }

    /** Every live link's id, in no particular order. */
    void forEachLive(IntConsumer action) {
        ids.forEachValue(action);
    }

    private static long pairKey(int u, int v) {
        return u < v ? ((long) u << 32) | v : ((long) v << 32) | u;
    }
}
