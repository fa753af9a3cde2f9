package io.tracesync.bench;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/**
 * A connected random network of linear clocks: node v reads {@code offset_v + (1 + drift_v)·t} at true time t (drift
 * up to ±100 ppm, offset up to ±1 h); a random spanning tree, then random links up to the count asked. Node names
 * are {@code n} and six digits, so a link's ends {@code a < b} are in the order of their names too.
 */
final class RandomNetwork {

    final String[] names;
    private final double[] drift;
    private final long[] offset;
    private final int[] a;
    private final int[] b;

    RandomNetwork(int nodes, int links, Random random) {
        if (links < nodes - 1 || links > (long) nodes * (nodes - 1) / 2) {
            throw new IllegalArgumentException(nodes + " nodes cannot be connected by " + links + " links");
        }
        names = new String[nodes];
        drift = new double[nodes];
        offset = new long[nodes];
        for (int v = 0; v < nodes; v++) {
            names[v] = String.format("n%06d", v);
            drift[v] = (random.nextDouble() * 2 - 1) * 1e-4;
            offset[v] = (long) ((random.nextDouble() * 2 - 1) * 3.6e12);
        }
        a = new int[links];
        b = new int[links];
        Set<Long> seen = new HashSet<>();
        int n = 0;
        for (int v = 1; v < nodes; v++) {
            n = add(v, random.nextInt(v), n, seen);
        }
        while (n < links) {
            n = add(random.nextInt(nodes), random.nextInt(nodes), n, seen);
        }
    }

    private int add(int u, int v, int n, Set<Long> seen) {
        int lo = Math.min(u, v);
        int hi = Math.max(u, v);
        if (lo == hi || !seen.add((long) lo << 32 | hi)) {
            return n;
        }
        a[n] = lo;
        b[n] = hi;
        return n + 1;
    }

    int nodes() {
        return names.length;
    }

    int links() {
        return a.length;
    }

    int a(int link) {
        return a[link];
    }

    int b(int link) {
        return b[link];
    }

    long offset(int v) {
        return offset[v];
    }

    /** Node v's reading at true time t. */
    long local(int v, long t) {
        return offset[v] + t + Math.round(drift[v] * t);
    }

    /** The true time at which node v reads {@code local} (to the nanosecond). */
    long trueAt(int v, long local) {
        long t = local - offset[v];
        for (int i = 0; i < 6; i++) {
            t = local - offset[v] - Math.round(drift[v] * t);
        }
        return t;
    }

    /** The link's true relation's slope, b's clock against a's. */
    double slope(int link) {
        return (1 + drift[b[link]]) / (1 + drift[a[link]]);
    }
}
