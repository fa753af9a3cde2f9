package io.tracesync.core.network;

import java.util.Arrays;

/**
 * For every vertex, the edges incident to it in one row, each beside a copy of its weight: the scan for the lightest
 * edge across a cut ({@link SpanningForest}) reads a vertex's weights in order and looks further only at the few
 * edges light enough to matter, where a list threaded through the edges cost several cache misses per edge. An
 * edge e is held at its two ends as slot 2e + side (side 0: its end a, 1: its end b); insertion appends, removal
 * swaps the row's last in, both O(1) through each slot's place in its row.
 */
final class EdgeLists {

    private static final double[] NO_WEIGHTS = new double[0];
    private static final int[] NO_SLOTS = new int[0];

    private double[][] weights = new double[16][];
    private int[][] slots = new int[16][];
    private int[] count = new int[16];
    /** Per slot: its index in its vertex's row. */
    private int[] place = new int[32];

    /** Adds edge e (&gt;= 1) of weight w at v, v being its end a (side 0) or b (side 1). */
    void add(int v, int e, int side, double w) {
        if (v >= count.length) {
            int n = Math.max(v + 1, 2 * count.length);
            weights = Arrays.copyOf(weights, n);
            slots = Arrays.copyOf(slots, n);
            count = Arrays.copyOf(count, n);
        }
        int i = count[v]++;
        if (weights[v] == null || i == weights[v].length) {
            int n = Math.max(4, 2 * i);
            weights[v] = Arrays.copyOf(weights[v] == null ? NO_WEIGHTS : weights[v], n);
            slots[v] = Arrays.copyOf(slots[v] == null ? NO_SLOTS : slots[v], n);
        }
        int slot = 2 * e + side;
        place = IntArrays.grow(place, slot + 1);
        weights[v][i] = w;
        slots[v][i] = slot;
        place[slot] = i;
    }

    void remove(int v, int e, int side) {
        int i = place[2 * e + side];
        int last = --count[v];
        int moved = slots[v][last];
        weights[v][i] = weights[v][last];
        slots[v][i] = moved;
        place[moved] = i;
    }

    /** The new weight w of edge e, whose ends are a and b. */
    void setWeight(int e, int a, int b, double w) {
        weights[a][place[2 * e]] = w;
        weights[b][place[2 * e + 1]] = w;
    }

    /** The edges at v. */
    int count(int v) {
        return v < count.length ? count[v] : 0;
    }

    /** The weights of v's edges, the first {@link #count} of them in use (read only). */
    double[] weights(int v) {
        return weights[v];
    }

    /** The slots of v's edges, in the order of {@link #weights} (read only). */
    int[] slots(int v) {
        return slots[v];
    }

    /** The edge of a slot. */
    static int edge(int slot) {
        return slot >>> 1;
    }

    /** The side of its edge a slot is at: 0 for end a, 1 for end b. */
    static int side(int slot) {
        return slot & 1;
    }
}
