package io.tracesync.core.graph;

import java.util.Arrays;

/**
 * For every vertex, the edges incident to it in one row of words, each its edge's weight rounded down to a float
 * beside its slot (2e + side; side 0: e's end a, 1: its end b), the row's count in its first word. The scan for the
 * lightest edge across a cut ({@code SpanningForest}) reads each vertex's row in order and looks further only at
 * edges that may be lighter than the best so far, where a list threaded through the edges cost a cache miss per
 * edge; an insertion writes one word of one row per end. Removal and a new weight find the slot in the row.
 */
public final class EdgeLists {

    private static final long SLOT = 0xFFFF_FFFFL;

    private long[][] rows = new long[16][];

    /** Adds edge e (&gt;= 1) of weight w at v, v being its end a (side 0) or b (side 1). */
    public void add(int v, int e, int side, double w) {
        if (v >= rows.length) {
            rows = Arrays.copyOf(rows, Math.max(v + 1, 2 * rows.length));
        }
        long[] row = rows[v];
        if (row == null) {
            row = new long[8];
            rows[v] = row;
        }
        int n = (int) row[0];
        if (n + 1 == row.length) {
            row = Arrays.copyOf(row, 2 * row.length);
            rows[v] = row;
        }
        row[n + 1] = word(w, 2 * e + side);
        row[0] = n + 1;
    }

    public void remove(int v, int e, int side) {
        long[] row = rows[v];
        int n = (int) row[0];
        row[find(row, 2 * e + side)] = row[n];
        row[0] = n - 1;
    }

    /** Edge e, whose ends are a and b, has the new weight w. */
    public void setWeight(int e, int a, int b, double w) {
        long[] row = rows[a];
        row[find(row, 2 * e)] = word(w, 2 * e);
        row = rows[b];
        row[find(row, 2 * e + 1)] = word(w, 2 * e + 1);
    }

    private static int find(long[] row, int slot) {
        int i = 1;
        while ((int) row[i] != slot) {
            i++;
        }
        return i;
    }

    /** v's row: its count in word 0, then that many words ({@link #slot}, {@link #weightFloor}); null if none. */
    public long[] row(int v) {
        return v < rows.length ? rows[v] : null;
    }

    /** The slot of a row's word. */
    public static int slot(long word) {
        return (int) word;
    }

    /** At most the weight of a row word's edge: its float rounded down. */
    public static float weightFloor(long word) {
        return Float.intBitsToFloat((int) (word >>> 32));
    }

    private static long word(double w, int slot) {
        float f = (float) w;
        return (long) Float.floatToRawIntBits(f > w ? Math.nextDown(f) : f) << 32 | slot & SLOT;
    }

    /** The edge of a slot. */
    public static int edge(int slot) {
        return slot >>> 1;
    }

    /** The side of its edge a slot is at: 0 for end a, 1 for end b. */
    public static int side(int slot) {
        return slot & 1;
    }
}
