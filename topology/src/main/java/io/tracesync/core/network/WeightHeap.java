package io.tracesync.core.network;

import java.util.Arrays;

/**
 * An indexed binary max-heap of edge weights: insert, remove and change any edge in O(log n), the heaviest in
 * O(1). Holds the spanning forest's edges, whose heaviest weight bounds every cycle's heaviest tree edge.
 */
final class WeightHeap {

    private int[] heap = new int[16];
    private int[] position = new int[16];
    private double[] weight = new double[16];
    private int size;

    /** The largest weight held, or -infinity when empty. */
    double max() {
        return size == 0 ? Double.NEGATIVE_INFINITY : weight[heap[0]];
    }

    void add(int e, double w) {
        if (e >= position.length) {
            int n = Math.max(e + 1, 2 * position.length);
            position = Arrays.copyOf(position, n);
            weight = Arrays.copyOf(weight, n);
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, 2 * size);
        }
        weight[e] = w;
        heap[size] = e;
        position[e] = size;
        up(size++);
    }

    void remove(int e) {
        int i = position[e];
        int last = heap[--size];
        if (i != size) {
            heap[i] = last;
            position[last] = i;
            up(i);
            down(position[last]);
        }
    }

    void change(int e, double w) {
        weight[e] = w;
        int i = position[e];
        up(i);
        down(position[e]);
    }

    private void up(int i) {
        int e = heap[i];
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (weight[heap[p]] >= weight[e]) {
                break;
            }
            heap[i] = heap[p];
            position[heap[i]] = i;
            i = p;
        }
        heap[i] = e;
        position[e] = i;
    }

    private void down(int i) {
        int e = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && weight[heap[c + 1]] > weight[heap[c]]) {
                c++;
            }
            if (weight[heap[c]] <= weight[e]) {
                break;
            }
            heap[i] = heap[c];
            position[heap[i]] = i;
            i = c;
        }
        heap[i] = e;
        position[e] = i;
    }
}
