package io.tracesync.core.network;

import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.collect.IntArrays;
import java.util.Arrays;

/**
 * A breadth-first enumeration of one tree of the forest, its vertices in order, with each vertex stamped so that
 * whether it is in the tree is one comparison until the next enumeration (the side of a cut that the replacement
 * scan reads).
 */
final class TreeScan {

    private int[] seen = new int[16];
    private int stamp;
    private int[] queue = new int[16];

    /** Room for vertex ids below {@code n}. */
    void grow(int n) {
        if (n > seen.length) {
            seen = Arrays.copyOf(seen, n);
        }
    }

    /** Enumerates the tree of {@code start} in {@code tree}; returns how many vertices it has. */
    int enumerate(int start, IncidenceLists tree) {
        stamp++;
        int head = 0;
        int tail = 0;
        queue = IntArrays.grow(queue, 1);
        queue[tail++] = start;
        seen[start] = stamp;
        while (head < tail) {
            int x = queue[head++];
            for (int i = 0, n = tree.count(x); i < n; i++) {
                int y = tree.neighbor(x, i);
                if (seen[y] != stamp) {
                    seen[y] = stamp;
                    queue = IntArrays.grow(queue, tail + 1);
                    queue[tail++] = y;
                }
            }
        }
        return tail;
    }

    /** The k-th vertex of the last enumeration. */
    int vertex(int k) {
        return queue[k];
    }

    /** Whether v is in the tree of the last enumeration. */
    boolean contains(int v) {
        return seen[v] == stamp;
    }
}
