package io.tracesync.core.collect;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * For every vertex, the edges incident to it and the vertex across each: its count and first (edge, neighbour)
 * pairs inline in one 64-byte line of a single array (one cache miss per vertex, and no look-up of the edge's ends
 * to step across it), the rest, for the few vertices of higher degree, in an overflow row. Insertion appends,
 * removal swaps the last in. An edge e is held at its two ends; {@code side} 0 is its end a, 1 its end b.
 *
 * <p>The vertices whose list changed since the last {@link #takeTouched} are logged, each once (a flag in its
 * count, on the line just written), so that a copy of the lists can be brought up to date lazily.
 */
public final class IncidenceLists {

    private static final int STRIDE = 16;
    /** (entry, neighbour) pairs held inline after the count. */
    private static final int INLINE = (STRIDE - 1) / 2;
    /** In a vertex's count word: its list changed since the last {@link #takeTouched}. */
    private static final int TOUCHED = 1 << 30;
    private static final int COUNT = TOUCHED - 1;

    /** Per vertex: the count (and the TOUCHED flag), then (2e + side, vertex across) of its first edges. */
    private int[] lines = new int[STRIDE * 16];
    /** Per vertex of more than INLINE edges: the pairs beyond the inline ones. */
    private int[][] overflow = new int[16][];
    private int[] touched = new int[16];
    private int touchedCount;

    /** Adds edge e at v, v being its end a (side 0) or b (side 1), {@code across} its other end. */
    public void add(int v, int e, int side, int across) {
        if (STRIDE * (v + 1) > lines.length) {
            lines = Arrays.copyOf(lines, Math.max(STRIDE * (v + 1), 2 * lines.length));
            overflow = Arrays.copyOf(overflow, lines.length / STRIDE);
        }
        int word = touch(v);
        int n = word & COUNT;
        set(v, n, 2 * e + side, across);
        lines[STRIDE * v] = word + 1;
    }

    public void remove(int v, int e, int side) {
        int word = touch(v);
        int n = (word & COUNT) - 1;
        int entry = 2 * e + side;
        int i = 0;
        while (entry(v, i) != entry) {
            i++;
        }
        set(v, i, entry(v, n), neighbor(v, n));
        lines[STRIDE * v] = word - 1;
    }

    /** Logs v as touched if it is not yet; returns its count word, flagged. */
    private int touch(int v) {
        int word = lines[STRIDE * v];
        if ((word & TOUCHED) == 0) {
            word |= TOUCHED;
            lines[STRIDE * v] = word;
            touched = IntArrays.grow(touched, touchedCount + 1);
            touched[touchedCount++] = v;
        }
        return word;
    }

    public int count(int v) {
        return STRIDE * v < lines.length ? lines[STRIDE * v] & COUNT : 0;
    }

    /** The i-th edge at v. */
    public int edge(int v, int i) {
        return entry(v, i) >>> 1;
    }

    /** The i-th edge at v as 2e + v's side of e. */
    public int entry(int v, int i) {
        return i < INLINE ? lines[STRIDE * v + 1 + 2 * i] : overflow[v][2 * (i - INLINE)];
    }

    /** The vertex across the i-th edge at v. */
    public int neighbor(int v, int i) {
        return i < INLINE ? lines[STRIDE * v + 2 + 2 * i] : overflow[v][2 * (i - INLINE) + 1];
    }

    /**
     * Passes every vertex whose list changed since the last call to {@code action}, once each, and clears the log.
     */
    public void takeTouched(IntConsumer action) {
        for (int k = 0; k < touchedCount; k++) {
            int v = touched[k];
            lines[STRIDE * v] &= COUNT;
            action.accept(v);
        }
        touchedCount = 0;
    }

    private void set(int v, int i, int entry, int across) {
        if (i < INLINE) {
            lines[STRIDE * v + 1 + 2 * i] = entry;
            lines[STRIDE * v + 2 + 2 * i] = across;
            return;
        }
        int[] row = overflow[v];
        int j = 2 * (i - INLINE);
        if (row == null || j >= row.length) {
            row = row == null ? new int[2 * INLINE] : Arrays.copyOf(row, 2 * row.length);
            overflow[v] = row;
        }
        row[j] = entry;
        row[j + 1] = across;
    }
}
