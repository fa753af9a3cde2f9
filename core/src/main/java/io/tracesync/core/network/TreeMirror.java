package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import java.util.Arrays;

/**
 * The spanning forest's tree edges, copied from its {@link IncidenceLists} for the vertices whose edges changed
 * at the start of each drain of {@link FactorPropagation} (not on every change of the forest: a vertex may change
 * many times between two drains), in a numbering of the vertices of its own, slots, chosen for memory locality: {@link #relayout} renumbers them
 * in the order of a traversal, and later traversals that mostly follow it sweep the slots almost in order. Each
 * slot keeps its degree and, per tree edge e, the entry 2e + the vertex's side of e and the slot of the vertex
 * across: in one 64-byte line while they fit, else in an overflow row. Slot 0 is unused.
 */
final class TreeMirror {

    private static final int STRIDE = 16;
    /** Edges held in a slot's line: after the degree, (entry, neighbour) pairs. */
    private static final int INLINE = (STRIDE - 1) / 2;

    private int[] slotOf = new int[16];
    private int[] vertexAt = new int[16];
    private int[] lines = new int[STRIDE * 16];
    /** The previous lines, reused by {@link #relayout}. */
    private int[] spareLines = new int[0];
    private int[][] overflow = new int[16][];
    private int slots = 1;

    /** One more than the largest slot. */
    int slots() {
        return slots;
    }

    /** The slot of vertex v, 0 if v is not held. */
    int slot(int v) {
        return v < slotOf.length ? slotOf[v] : 0;
    }

    /** The vertex of slot s. */
    int vertex(int s) {
        return vertexAt[s];
    }

    /** Holds vertex v, which has no tree edge yet; returns its slot. */
    int add(int v) {
        if (v >= slotOf.length) {
            slotOf = Arrays.copyOf(slotOf, Math.max(v + 1, 2 * slotOf.length));
        }
        int s = slots++;
        if (s == vertexAt.length) {
            vertexAt = Arrays.copyOf(vertexAt, 2 * s);
            overflow = Arrays.copyOf(overflow, 2 * s);
            lines = Arrays.copyOf(lines, STRIDE * 2 * s);
        }
        slotOf[v] = s;
        vertexAt[s] = v;
        lines[STRIDE * s] = 0;
        return s;
    }

    int degree(int s) {
        return lines[STRIDE * s];
    }

    /** The k-th tree edge e at slot s as 2e + its vertex's side of e. */
    int entry(int s, int k) {
        int d = lines[STRIDE * s];
        return d <= INLINE ? lines[STRIDE * s + 1 + 2 * k] : overflow[s][2 * k];
    }

    /** The slot across the k-th tree edge at slot s. */
    int neighbor(int s, int k) {
        int d = lines[STRIDE * s];
        return d <= INLINE ? lines[STRIDE * s + 2 + 2 * k] : overflow[s][2 * k + 1];
    }

    /** The index at slot s of its tree edge with the given entry. */
    int indexOf(int s, int entry) {
        int k = 0;
        while (entry(s, k) != entry) {
            k++;
        }
        return k;
    }

    /** Copies vertex v's tree edges from {@code lists}, every vertex across them being held. */
    void copy(int v, IncidenceLists lists) {
        int s = slotOf[v];
        int d = lists.count(v);
        int[] row = lines;
        int base = STRIDE * s + 1;
        if (d > INLINE) {
            row = overflow[s];
            if (row == null || 2 * d > row.length) {
                row = new int[Math.max(4 * INLINE, 2 * d)];
                overflow[s] = row;
            }
            base = 0;
        } else {
            overflow[s] = null;
        }
        for (int k = 0; k < d; k++) {
            row[base + 2 * k] = lists.entry(v, k);
            row[base + 2 * k + 1] = slotOf[lists.neighbor(v, k)];
        }
        lines[STRIDE * s] = d;
    }

    /**
     * Renumbers the slots: the n slots of {@code order} first, in that order, then the others in theirs. Returns
     * each new slot's old one.
     */
    int[] relayout(int[] order, int n) {
        int[] to = new int[slots];
        int[] source = new int[slots];
        int next = 1;
        for (int i = 0; i < n; i++) {
            source[next] = order[i];
            to[order[i]] = next++;
        }
        for (int s = 1; s < slots; s++) {
            if (to[s] == 0) {
                source[next] = s;
                to[s] = next++;
            }
        }
        if (spareLines.length < lines.length) {
            spareLines = new int[lines.length];
        }
        int[][] newOverflow = new int[overflow.length][];
        int[] newVertexAt = new int[vertexAt.length];
        for (int t = 1; t < slots; t++) {
            int s = source[t];
            int d = lines[STRIDE * s];
            System.arraycopy(lines, STRIDE * s, spareLines, STRIDE * t, STRIDE);
            int[] row = d <= INLINE ? spareLines : overflow[s];
            int base = d <= INLINE ? STRIDE * t + 1 : 0;
            for (int k = 0; k < d; k++) {
                row[base + 2 * k + 1] = to[row[base + 2 * k + 1]];
            }
            newOverflow[t] = overflow[s];
            newVertexAt[t] = vertexAt[s];
            slotOf[vertexAt[s]] = t;
        }
        int[] old = lines;
        lines = spareLines;
        spareLines = old;
        overflow = newOverflow;
        vertexAt = newVertexAt;
        return source;
    }
}
