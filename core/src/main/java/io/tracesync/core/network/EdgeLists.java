package io.tracesync.core.network;

/**
 * For every vertex, the edges incident to it as a linked list threaded through the edges' ends (slot 2e for end a,
 * 2e+1 for end b; edge ids start at 1, so slot 0 means none): O(1) insertion without per-vertex arrays to grow,
 * removal by a walk of the vertex's list. For the whole graph, where edges arrive by the million, are rarely
 * removed, and are only enumerated when a tree edge needs a replacement.
 */
final class EdgeLists {

    /** Per vertex, field HEAD: its first slot. */
    private final VertexTable table;
    private int[] next = new int[32];

    EdgeLists(VertexTable table) {
        this.table = table;
    }

    /** Adds edge e (&gt;= 1) at v, v being its end a (side 0) or b (side 1); the table has room for v. */
    void add(int v, int e, int side) {
        int slot = 2 * e + side;
        next = IntArrays.grow(next, slot + 1);
        next[slot] = first(v);
        table.set(v, VertexTable.HEAD, slot);
    }

    void remove(int v, int e, int side) {
        int slot = 2 * e + side;
        int s = first(v);
        if (s == slot) {
            table.set(v, VertexTable.HEAD, next[slot]);
            return;
        }
        while (next[s] != slot) {
            s = next[s];
        }
        next[s] = next[slot];
    }

    /** The first slot at v, or 0. */
    int first(int v) {
        return (int) table.get(v, VertexTable.HEAD);
    }

    /** The slot after {@code slot} at the same vertex, or 0. */
    int next(int slot) {
        return next[slot];
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
