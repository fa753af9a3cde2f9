package io.tracesync.core.network;

import java.util.Arrays;

/**
 * Every link of the spanning forest's graph, tree link or not, by edge id, with its latest estimate: what the
 * network-wide intervals are computed from. Adding, replacing and removing are O(1); the links are listed densely.
 */
final class UsableLinks {

    private int[] list = new int[16];
    private int count;
    private int[] position = new int[16];
    private LinkEstimate[] estimate = new LinkEstimate[16];

    void put(int e, LinkEstimate link) {
        if (e >= position.length) {
            int n = Math.max(e + 1, 2 * position.length);
            position = Arrays.copyOf(position, n);
            estimate = Arrays.copyOf(estimate, n);
        }
        if (estimate[e] == null) {
            list = IntArrays.grow(list, count + 1);
            position[e] = count;
            list[count++] = e;
        }
        estimate[e] = link;
    }

    void remove(int e) {
        if (e <= 0 || e >= estimate.length || estimate[e] == null) {
            return;
        }
        int last = list[--count];
        list[position[e]] = last;
        position[last] = position[e];
        estimate[e] = null;
    }

    int size() {
        return count;
    }

    /** The edge id of the i-th link, 0 ≤ i &lt; size(). */
    int edge(int i) {
        return list[i];
    }

    LinkEstimate estimate(int e) {
        return estimate[e];
    }
}
