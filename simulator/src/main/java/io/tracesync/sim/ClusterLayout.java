package io.tracesync.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Who talks to whom: the communicating pairs of hosts (links a < b, sorted), each with the number of switch hops
 * between them. Switches are not nodes — they record no trace — they only lengthen the minimum delay of the links
 * that cross them: 2 hops (host, switch, host) within a rack, a clique or a flat network; 4 (host, top-of-rack,
 * spine, top-of-rack, host) across racks and across the bridges between cliques.
 */
public final class ClusterLayout {

    /** The shapes {@code tracesync simulate --topology} offers. */
    public enum Kind {
        /** A random spanning tree plus uniformly random links up to the mean degree (so it is connected). */
        RANDOM,
        /** Node 0 talks to every other node, and no one else talks. */
        STAR,
        /**
         * Racks of {@code groupSize} hosts: every host talks to every host of its rack (through the top-of-rack
         * switch) and to one random host of another rack (through the spine); the first host of every rack but
         * the first picks an earlier rack, which keeps the racks connected.
         */
        RACKS,
        /** Complete groups of {@code groupSize} nodes, each but the first bridged to an earlier one by one link. */
        CLIQUES;

        public static Kind parse(String s) {
            try {
                return valueOf(s.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + s + "' is not a topology (random, star, racks, cliques)");
            }
        }
    }

    /** Hops within one switch. */
    public static final int NEAR = 2;
    /** Hops across a spine or a bridge. */
    public static final int FAR = 4;

    private final int nodes;
    private final int[] a;
    private final int[] b;
    private final int[] hops;

    private ClusterLayout(int nodes, List<long[]> links) {
        links.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        this.nodes = nodes;
        this.a = new int[links.size()];
        this.b = new int[links.size()];
        this.hops = new int[links.size()];
        for (int i = 0; i < links.size(); i++) {
            a[i] = (int) links.get(i)[0];
            b[i] = (int) links.get(i)[1];
            hops[i] = (int) links.get(i)[2];
        }
    }

    /**
     * Builds the topology of {@code n} ≥ 2 nodes: {@code degree} is the mean degree of RANDOM, {@code groupSize}
     * the size of a rack or a clique.
     */
    public static ClusterLayout build(Kind kind, int n, double degree, int groupSize, SplittableRandom random) {
        if (n < 2) {
            throw new IllegalArgumentException("a topology needs at least 2 nodes");
        }
        Links links = new Links(n);
        switch (kind) {
            case RANDOM -> random(links, n, degree, random);
            case STAR -> {
                for (int i = 1; i < n; i++) {
                    links.add(0, i, NEAR);
                }
            }
            case RACKS -> racks(links, n, groupSize, random);
            case CLIQUES -> cliques(links, n, groupSize, random);
        }
        return new ClusterLayout(n, links.list);
    }

    private static void random(Links links, int n, double degree, SplittableRandom r) {
        int[] order = permutation(n, r);
        for (int i = 1; i < n; i++) {
            links.add(order[i], order[r.nextInt(i)], NEAR);
        }
        long all = (long) n * (n - 1) / 2;
        long target = Math.min(all, Math.max(n - 1, Math.round(n * degree / 2)));
        if (target == all) {
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    links.add(i, j, NEAR);
                }
            }
            return;
        }
        while (links.list.size() < target) {
            int i = r.nextInt(n);
            int j = r.nextInt(n - 1);
            links.add(i, j < i ? j : j + 1, NEAR);
        }
    }

    private static void racks(Links links, int n, int size, SplittableRandom r) {
        int racks = (n + size - 1) / size;
        for (int h = 0; h < n; h++) {
            int rack = h / size;
            for (int o = rack * size; o < h; o++) {
                links.add(o, h, NEAR);
            }
            if (racks > 1) {
                boolean first = h == rack * size && rack > 0;
                int other = first ? r.nextInt(rack) : (rack + 1 + r.nextInt(racks - 1)) % racks;
                int lo = other * size;
                links.add(h, lo + r.nextInt(Math.min(n, lo + size) - lo), FAR);
            }
        }
    }

    private static void cliques(Links links, int n, int size, SplittableRandom r) {
        for (int c = 0; c * size < n; c++) {
            int lo = c * size;
            int hi = Math.min(n, lo + size);
            for (int i = lo; i < hi; i++) {
                for (int j = i + 1; j < hi; j++) {
                    links.add(i, j, NEAR);
                }
            }
            if (c > 0) {
                int earlier = r.nextInt(c) * size;
                links.add(lo + r.nextInt(hi - lo), earlier + r.nextInt(size), FAR);
            }
        }
    }

    private static int[] permutation(int n, SplittableRandom r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            int j = r.nextInt(i + 1);
            p[i] = p[j];
            p[j] = i;
        }
        return p;
    }

    public int nodes() {
        return nodes;
    }

    public int links() {
        return a.length;
    }

    /** The smaller end of link {@code i}. */
    public int a(int i) {
        return a[i];
    }

    /** The larger end of link {@code i}. */
    public int b(int i) {
        return b[i];
    }

    /** Switch hops on link {@code i}: {@link #NEAR} or {@link #FAR}. */
    public int hops(int i) {
        return hops[i];
    }

    /** Distinct undirected links under construction, as (a, b, hops) with a < b. */
    private static final class Links {
        private final int n;
        private final Set<Long> seen = new HashSet<>();
        private final List<long[]> list = new ArrayList<>();

        Links(int n) {
            this.n = n;
        }

        void add(int x, int y, int hops) {
            int lo = Math.min(x, y);
            int hi = Math.max(x, y);
            if (lo != hi && seen.add((long) lo * n + hi)) {
                list.add(new long[] {lo, hi, hops});
            }
        }
    }
}
