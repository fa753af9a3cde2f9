package io.tracesync.core.network;

import java.util.Arrays;

/**
 * A system of difference constraints x_to − x_from ≤ w over vertices 0..n−1, with x_source = 0 (integer weights,
 * exact, saturating at {@link LinkEstimate#UNBOUNDED}). Its tightest consequences are shortest-path distances:
 * x_v ≤ dist(source → v) and x_v ≥ −dist(v → source); an unreachable vertex is unbounded on that side, and a
 * negative cycle means no assignment satisfies every constraint (Patt-Shamir &amp; Rajsbaum 1994: the tightest
 * bounds between clocks given per-message constraints are such distances).
 *
 * <p>Label-correcting search in the order of a heap on the tentative distances: Dijkstra's order, so a
 * system whose weights are nonnegative costs O(m log n), and a vertex whose distance drops after it was scanned
 * (a negative arc) is scanned again. Arcs are kept in compressed rows, built once for both directions.
 */
final class DifferenceConstraints {

    static final long UNBOUNDED = LinkEstimate.UNBOUNDED;
    private static final long NEGATIVE_LIMIT = -(1L << 62);

    private final int n;
    private final int[] from;
    private final int[] to;
    private final long[] weight;
    private int m;
    /** The arcs in rows, built when first searched (given when the system was made on fixed arcs). */
    private Arcs rows;
    private final boolean fixed;

    DifferenceConstraints(int n, int arcCapacity) {
        this.n = n;
        this.from = new int[arcCapacity];
        this.to = new int[arcCapacity];
        this.weight = new long[arcCapacity];
        this.fixed = false;
    }

    /**
     * A system on fixed arcs, built once and kept while they stay ({@link Arcs#ofLinks}), with this system's weight
     * of each; an {@link #UNBOUNDED} weight leaves that arc out.
     */
    DifferenceConstraints(Arcs arcs, long[] weight) {
        if (weight.length != arcs.from.length) {
            throw new IllegalArgumentException(weight.length + " weights for " + arcs.from.length + " arcs");
        }
        for (long w : weight) {
            if (w < NEGATIVE_LIMIT) {
                throw new IllegalArgumentException("constraint weight out of range: " + w);
            }
        }
        this.n = arcs.n;
        this.from = arcs.from;
        this.to = arcs.to;
        this.weight = weight;
        this.m = weight.length;
        this.rows = arcs;
        this.fixed = true;
    }

    int vertices() {
        return n;
    }

    int arcs() {
        return m;
    }

    /** Adds x_v − x_u ≤ w (an arc u → v); an unbounded w adds nothing. Returns the arc's index, or −1. */
    int add(int u, int v, long w) {
        if (w == UNBOUNDED) {
            return -1;
        }
        if (w < NEGATIVE_LIMIT) {
            throw new IllegalArgumentException("constraint weight out of range: " + w);
        }
        if (fixed) {
            throw new IllegalStateException("a system on fixed arcs takes no more");
        }
        from[m] = u;
        to[m] = v;
        weight[m] = w;
        rows = null;
        return m++;
    }

    int from(int arc) {
        return from[arc];
    }

    int to(int arc) {
        return to[arc];
    }

    long weight(int arc) {
        return weight[arc];
    }

    /**
     * The arcs of a system by vertex, out and in (compressed rows, with each arc's other end beside it): what a
     * search reads. Building them costs passes over every arc in scattered order, so a system whose arcs stay and
     * whose weights change keeps them.
     */
    static final class Arcs {

        final int n;
        final int[] from;
        final int[] to;
        final int[] outStart;
        final int[] outArcs;
        final int[] outTo;
        final int[] inStart;
        final int[] inArcs;
        final int[] inFrom;

        private Arcs(int n, int[] from, int[] to, int m) {
            this.n = n;
            this.from = from;
            this.to = to;
            outStart = new int[n + 1];
            inStart = new int[n + 1];
            for (int a = 0; a < m; a++) {
                outStart[from[a] + 1]++;
                inStart[to[a] + 1]++;
            }
            for (int v = 0; v < n; v++) {
                outStart[v + 1] += outStart[v];
                inStart[v + 1] += inStart[v];
            }
            outArcs = new int[m];
            inArcs = new int[m];
            outTo = new int[m];
            inFrom = new int[m];
            int[] o = Arrays.copyOf(outStart, n);
            int[] i = Arrays.copyOf(inStart, n);
            for (int a = 0; a < m; a++) {
                int k = o[from[a]]++;
                outArcs[k] = a;
                outTo[k] = to[a];
                k = i[to[a]]++;
                inArcs[k] = a;
                inFrom[k] = from[a];
            }
        }

        /**
         * The arcs of links between vertices 0..n−1, two per link l: arc 2l from {@code b[l]} to {@code a[l]}, arc
         * 2l + 1 from {@code a[l]} to {@code b[l]}.
         */
        static Arcs ofLinks(int n, int[] a, int[] b) {
            int links = a.length;
            int[] from = new int[2 * links];
            int[] to = new int[2 * links];
            for (int l = 0; l < links; l++) {
                from[2 * l] = b[l];
                to[2 * l] = a[l];
                from[2 * l + 1] = a[l];
                to[2 * l + 1] = b[l];
            }
            return new Arcs(n, from, to, 2 * links);
        }
    }

    /** Which vertices an arc path reaches from {@code source}. */
    boolean[] reachable(int source) {
        Arcs r = index();
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        int tail = 0;
        seen[source] = true;
        queue[tail++] = source;
        for (int head = 0; head < tail; head++) {
            int u = queue[head];
            for (int k = r.outStart[u]; k < r.outStart[u + 1]; k++) {
                int v = r.outTo[k];
                if (!seen[v] && weight[r.outArcs[k]] != UNBOUNDED) {
                    seen[v] = true;
                    queue[tail++] = v;
                }
            }
        }
        return seen;
    }

    /** The result of one search: distances ({@link #UNBOUNDED} where unreachable) or a negative cycle's arcs. */
    record Result(long[] distance, int[] negativeCycle) {

        boolean consistent() {
            return negativeCycle == null;
        }
    }

    /**
     * dist(source → v) for every v when {@code forward}, else dist(v → source); arcs whose {@code excluded} flag
     * is set are left out (null: none).
     */
    Result distances(int source, boolean forward, boolean[] excluded) {
        return distances(source, forward, excluded, null);
    }

    /**
     * The same, searching on the weights reduced by a potential π (w + π_u − π_v for an arc u → v followed
     * forward), which leaves every path's order unchanged: with a π close to a solution (an estimate of the
     * x_v) nearly every reduced weight is nonnegative and each vertex is scanned about once (Johnson 1977).
     * Null: π = 0.
     */
    Result distances(int source, boolean forward, boolean[] excluded, long[] potential) {
        Arcs r = index();
        int[] start = forward ? r.outStart : r.inStart;
        int[] arcs = forward ? r.outArcs : r.inArcs;
        int[] ends = forward ? r.outTo : r.inFrom;
        long[] dist = new long[n];
        Arrays.fill(dist, UNBOUNDED);
        int[] hops = new int[n];
        int[] via = new int[n];
        Arrays.fill(via, -1);
        LongHeap heap = new LongHeap(n);
        int untilCheck = 0;
        dist[source] = 0;
        heap.push(source, 0);
        while (!heap.isEmpty()) {
            int u = heap.pop();
            long du = dist[u];
            long pu = potential == null ? 0 : potential[u];
            for (int k = start[u], end = start[u + 1]; k < end; k++) {
                int a = arcs[k];
                long w = weight[a];
                if (w == UNBOUNDED || excluded != null && excluded[a]) {
                    continue;
                }
                int v = ends[k];
                // the weight reduced by the potential in the direction of the search (u → v)
                long reduced = potential == null ? w : forward ? w + pu - potential[v] : w + potential[v] - pu;
                long d = Bounds.add(du, reduced);
                if (d < dist[v]) {
                    if (d < NEGATIVE_LIMIT) {
                        throw new IllegalStateException("distance out of range at vertex " + v);
                    }
                    dist[v] = d;
                    via[v] = a;
                    hops[v] = Math.min(hops[u] + 1, n);
                    if (hops[v] >= n && --untilCheck <= 0) {
                        int[] c = parentCycle(via, forward);
                        if (c != null) {
                            return new Result(null, c);
                        }
                        untilCheck = n;
                    }
                    heap.pushOrDecrease(v, d);
                }
            }
        }
        if (potential != null) {
            for (int v = 0; v < n; v++) {
                if (dist[v] != UNBOUNDED) {
                    // forward: d' = d + π_source − π_v; backward: d' = d − π_source + π_v
                    dist[v] = forward ? dist[v] - potential[source] + potential[v]
                            : dist[v] + potential[source] - potential[v];
                }
            }
        }
        return new Result(dist, null);
    }

    /**
     * A cycle of the predecessor arcs, in path order, or null. A label set through a walk of n arcs proves a
     * negative cycle (a vertex repeats on the walk, and its second label was lower than its first); the
     * predecessor arcs then close a cycle, a negative one, after a bounded number of further relaxations
     * (Cherkassky &amp; Goldberg 1999), so the search looks for it every n relaxations from then on.
     */
    private int[] parentCycle(int[] via, boolean forward) {
        byte[] state = new byte[n];
        for (int s = 0; s < n; s++) {
            int x = s;
            while (state[x] == 0 && via[x] >= 0) {
                state[x] = 1;
                x = forward ? from[via[x]] : to[via[x]];
            }
            if (state[x] == 1 && via[x] >= 0) {
                return cycleThrough(x, via, forward);
            }
            for (int y = s; state[y] == 1; y = forward ? from[via[y]] : to[via[y]]) {
                state[y] = 2;
                if (via[y] < 0) {
                    break;
                }
            }
            state[x] = 2;
        }
        return null;
    }

    /** The predecessor arcs of the cycle through x, in the order of a path along the arcs. */
    private int[] cycleThrough(int x, int[] via, boolean forward) {
        int count = 0;
        int y = x;
        do {
            count++;
            y = forward ? from[via[y]] : to[via[y]];
        } while (y != x);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            // walking back along a forward search's predecessors meets the arcs last first; a backward one's first
            out[forward ? count - 1 - i : i] = via[y];
            y = forward ? from[via[y]] : to[via[y]];
        }
        return out;
    }

    private Arcs index() {
        if (rows == null) {
            rows = new Arcs(n, from, to, m);
        }
        return rows;
    }

    /**
     * A 4-ary min-heap of vertices keyed by long, with decrease-key and re-insertion after a pop: half the levels of
     * a binary one, and a node's four children side by side in memory.
     */
    private static final class LongHeap {

        private final int[] heap;
        private final long[] key;
        private final int[] position;
        private int size;

        LongHeap(int n) {
            heap = new int[n];
            key = new long[n];
            position = new int[n];
            Arrays.fill(position, -1);
        }

        boolean isEmpty() {
            return size == 0;
        }

        void push(int v, long k) {
            pushOrDecrease(v, k);
        }

        void pushOrDecrease(int v, long k) {
            int i = position[v];
            if (i < 0) {
                i = size++;
                heap[i] = v;
                position[v] = i;
            }
            key[v] = k;
            up(i);
        }

        int pop() {
            int top = heap[0];
            position[top] = -1;
            size--;
            if (size > 0) {
                heap[0] = heap[size];
                position[heap[0]] = 0;
                down(0);
            }
            return top;
        }

        private void up(int i) {
            int v = heap[i];
            long k = key[v];
            while (i > 0) {
                int p = (i - 1) >>> 2;
                if (key[heap[p]] <= k) {
                    break;
                }
                heap[i] = heap[p];
                position[heap[i]] = i;
                i = p;
            }
            heap[i] = v;
            position[v] = i;
        }

        private void down(int i) {
            int v = heap[i];
            long k = key[v];
            while (true) {
                int first = 4 * i + 1;
                if (first >= size) {
                    break;
                }
                int c = first;
                long kc = key[heap[c]];
                for (int j = first + 1, last = Math.min(first + 4, size); j < last; j++) {
                    long kj = key[heap[j]];
                    if (kj < kc) {
                        c = j;
                        kc = kj;
                    }
                }
                if (kc >= k) {
                    break;
                }
                heap[i] = heap[c];
                position[heap[i]] = i;
                i = c;
            }
            heap[i] = v;
            position[v] = i;
        }
    }
}
