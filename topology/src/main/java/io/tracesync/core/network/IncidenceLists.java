package io.tracesync.core.network;

import java.util.Arrays;

/**
 * For every vertex, the edges incident to it: its count and first edges inline in one 64-byte line of a single
 * array (one cache miss per vertex), the rest, for the few vertices of higher degree, in an overflow row.
 * Insertion appends, removal swaps the last in. An edge e is held at its two ends; {@code side} 0 is its end a, 1
 * its end b. One {@link Listener} may follow the changes.
 */
final class IncidenceLists {

    /** Told of each edge end added or removed, after the fact. */
    interface Listener {
        void added(int v, int e, int side);

        void removed(int v, int e, int side);
    }

    private static final int STRIDE = 16;
    /** Entries held inline after the count. */
    private static final int INLINE = STRIDE - 1;

    /** Per vertex: the count, then 2e + side of its first edges. */
    private int[] lines = new int[STRIDE * 16];
    /** Per vertex of more than INLINE edges: the entries beyond the inline ones. */
    private int[][] overflow = new int[16][];
    private Listener listener;

    void listen(Listener l) {
        listener = l;
    }

    void add(int v, int e, int side) {
        if (STRIDE * (v + 1) > lines.length) {
            lines = Arrays.copyOf(lines, Math.max(STRIDE * (v + 1), 2 * lines.length));
            overflow = Arrays.copyOf(overflow, lines.length / STRIDE);
        }
        int n = lines[STRIDE * v];
        set(v, n, 2 * e + side);
        lines[STRIDE * v] = n + 1;
        if (listener != null) {
            listener.added(v, e, side);
        }
    }

    void remove(int v, int e, int side) {
        int n = lines[STRIDE * v] - 1;
        int entry = 2 * e + side;
        int i = 0;
        while (get(v, i) != entry) {
            i++;
        }
        set(v, i, get(v, n));
        lines[STRIDE * v] = n;
        if (listener != null) {
            listener.removed(v, e, side);
        }
    }

    int count(int v) {
        return STRIDE * v < lines.length ? lines[STRIDE * v] : 0;
    }

    /** The i-th edge at v. */
    int edge(int v, int i) {
        return get(v, i) >>> 1;
    }

    private int get(int v, int i) {
        return i < INLINE ? lines[STRIDE * v + 1 + i] : overflow[v][i - INLINE];
    }

    private void set(int v, int i, int entry) {
        if (i < INLINE) {
            lines[STRIDE * v + 1 + i] = entry;
            return;
        }
        int[] row = overflow[v];
        if (row == null || i - INLINE >= row.length) {
            row = row == null ? new int[INLINE] : Arrays.copyOf(row, 2 * row.length);
            overflow[v] = row;
        }
        row[i - INLINE] = entry;
    }
}
