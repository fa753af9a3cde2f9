package io.tracesync.core.network;

import java.util.Arrays;

/**
 * For every vertex, the edges incident to it, with O(1) insertion and removal (swap with the last). An edge e
 * is held at its two ends; {@code side} 0 is its end a, 1 its end b. One {@link Listener} may follow the changes.
 */
final class IncidenceLists {

    /** Told of each edge end added or removed, after the fact. */
    interface Listener {
        void added(int v, int e, int side);

        void removed(int v, int e, int side);
    }

    private static final int[] EMPTY = new int[0];

    private int[][] lists = new int[16][];
    private int[] counts = new int[16];
    private int[] position = new int[32];
    private Listener listener;

    void listen(Listener l) {
        listener = l;
    }

    void add(int v, int e, int side) {
        if (v >= lists.length) {
            lists = Arrays.copyOf(lists, Math.max(v + 1, 2 * lists.length));
            counts = Arrays.copyOf(counts, lists.length);
        }
        if (2 * e + 1 >= position.length) {
            position = Arrays.copyOf(position, Math.max(2 * e + 2, 2 * position.length));
        }
        int[] l = lists[v] == null ? EMPTY : lists[v];
        int n = counts[v];
        if (n == l.length) {
            l = Arrays.copyOf(l, Math.max(2, 2 * n));
            lists[v] = l;
        }
        l[n] = 2 * e + side;
        position[2 * e + side] = n;
        counts[v] = n + 1;
        if (listener != null) {
            listener.added(v, e, side);
        }
    }

    void remove(int v, int e, int side) {
        int[] l = lists[v];
        int i = position[2 * e + side];
        int n = --counts[v];
        int moved = l[n];
        l[i] = moved;
        position[moved] = i;
        if (listener != null) {
            listener.removed(v, e, side);
        }
    }

    int count(int v) {
        return v < counts.length ? counts[v] : 0;
    }

    /** The i-th edge at v. */
    int edge(int v, int i) {
        return lists[v][i] >>> 1;
    }
}
