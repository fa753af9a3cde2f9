package io.tracesync.core.network;

import java.util.Arrays;

/**
 * The spanning forest's tree edges, mirrored from its {@link IncidenceLists} as they change (told by
 * {@link FactorPropagation}, which listens to them),
 * in a numbering of the vertices of its own, slots, chosen for memory locality: {@link #relayout} renumbers them
 * in the order of a traversal, and later traversals that mostly follow it sweep the slots almost in order. Each
 * slot keeps its degree and, per tree edge e, the entry 2e + the vertex's side of e and the slot of the vertex
 * across: in one 64-byte line while they fit, else in an overflow row. Slot 0 is unused.
 */
final class TreeMirror {

    private static final int STRIDE = 16;
    /** Edges held in a slot's line: after the degree, (entry, neighbour) pairs. */
    private static final int INLINE = (STRIDE - 1) / 2;

    private final SpanningForest forest;
    private int[] slotOf = new int[16];
    private int[] vertexAt = new int[16];
    private String[] nameAt = new String[16];
    private int[] lines = new int[STRIDE * 16];
    /** The previous lines, reused by {@link #relayout}. */
    private int[] spareLines = new int[0];
    private int[][] overflow = new int[16][];
    private int slots = 1;

    TreeMirror(SpanningForest forest) {
        this.forest = forest;
    }

    /** One more than the largest slot. */
    int slots() {
        return slots;
    }

    /** The slot of vertex v, 0 if v is not held. */
    int slot(int v) {
        return v < slotOf.length ? slotOf[v] : 0;
    }

    /** The name of slot s's vertex, held here in slot order for sweeps. */
    String name(int s) {
        return nameAt[s];
    }

    /** Holds vertex v, which has no tree edge yet; returns its slot. */
    int add(int v) {
        if (v >= slotOf.length) {
            slotOf = Arrays.copyOf(slotOf, Math.max(v + 1, 2 * slotOf.length));
        }
        int s = slots++;
        if (s == vertexAt.length) {
            vertexAt = Arrays.copyOf(vertexAt, 2 * s);
            nameAt = Arrays.copyOf(nameAt, 2 * s);
            overflow = Arrays.copyOf(overflow, 2 * s);
            lines = Arrays.copyOf(lines, STRIDE * 2 * s);
        }
        slotOf[v] = s;
        vertexAt[s] = v;
        lines[STRIDE * s] = 0;
        nameAt[s] = forest.name(v);
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

    /** Tree edge e was added at v, its end of the given side. */
    void added(int v, int e, int side) {
        int s = slotOf[v];
        int d = lines[STRIDE * s];
        int across = slotOf[side == 0 ? forest.endB(e) : forest.endA(e)];
        if (d < INLINE) {
            lines[STRIDE * s + 1 + 2 * d] = 2 * e + side;
            lines[STRIDE * s + 2 + 2 * d] = across;
        } else {
            int[] row = overflow[s];
            if (d == INLINE) {
                row = new int[4 * INLINE];
                System.arraycopy(lines, STRIDE * s + 1, row, 0, 2 * INLINE);
            } else if (2 * d + 2 > row.length) {
                row = Arrays.copyOf(row, 2 * row.length);
            }
            row[2 * d] = 2 * e + side;
            row[2 * d + 1] = across;
            overflow[s] = row;
        }
        lines[STRIDE * s] = d + 1;
    }

    /** Tree edge e was removed at v, its end of the given side. */
    void removed(int v, int e, int side) {
        int s = slotOf[v];
        int d = lines[STRIDE * s];
        int[] row = d <= INLINE ? lines : overflow[s];
        int base = d <= INLINE ? STRIDE * s + 1 : 0;
        int k = 0;
        while (row[base + 2 * k] != 2 * e + side) {
            k++;
        }
        row[base + 2 * k] = row[base + 2 * d - 2];
        row[base + 2 * k + 1] = row[base + 2 * d - 1];
        if (d == INLINE + 1) {
            System.arraycopy(row, 0, lines, STRIDE * s + 1, 2 * INLINE);
            overflow[s] = null;
        }
        lines[STRIDE * s] = d - 1;
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
        String[] newNameAt = new String[nameAt.length];
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
            newNameAt[t] = nameAt[s];
            slotOf[vertexAt[s]] = t;
        }
        int[] old = lines;
        lines = spareLines;
        spareLines = old;
        overflow = newOverflow;
        vertexAt = newVertexAt;
        nameAt = newNameAt;
        return source;
    }
}
