package io.tracesync.core.network;

import java.util.Arrays;

/**
 * The per-vertex data every link update reads, side by side in one 16-byte record of a single array, so that
 * an update costs one cache miss per end for all of it: the vertex's tree label and minimax bound
 * ({@link MinimaxBounds}) and the head of its list of graph edges ({@link EdgeLists}).
 */
final class VertexTable {

    static final int BOUND = 0;
    static final int HEAD = 1;
    private static final int STRIDE = 2;

    private long[] cells = new long[STRIDE * 16];

    /** Makes room for vertex v. */
    void ensure(int v) {
        if (STRIDE * (v + 1) > cells.length) {
            cells = Arrays.copyOf(cells, Math.max(STRIDE * (v + 1), 2 * cells.length));
        }
    }

    /** One more than the largest vertex with room. */
    int capacity() {
        return cells.length / STRIDE;
    }

    long get(int v, int field) {
        return cells[STRIDE * v + field];
    }

    void set(int v, int field, long value) {
        cells[STRIDE * v + field] = value;
    }
}
