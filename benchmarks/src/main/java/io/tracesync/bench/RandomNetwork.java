package io.tracesync.bench;

import io.tracesync.console.UserError;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/**
 * A connected random network of linear clocks: node v reads {@code offset_v + (1 + drift_v)·t} at true time t (drift
 * up to ±100 ppm, offset up to ±1 h); a random spanning tree, then random links up to the count asked. Node names
 * are {@code n} and six digits, so a link's ends {@code a < b} are in the order of their names too. With regions
 * (racks, zones), the nodes are cut into that many blocks of consecutive numbers, each connected by a random tree
 * of its own and every block after the first tied to an earlier one by a link; of the other links a given
 * fraction joins two regions, the rest two nodes of one. Their names then begin with the region's, {@code r}, three
 * digits and a dot ({@link #REGION_PATTERN} finds it), in the same order.
 */
final class RandomNetwork {

    /** The regions of a network with regions, as {@code network.regions} takes them. */
    static final String REGION_PATTERN = "^(r\\d+)\\.";

    final String[] names;
    private final double[] drift;
    private final long[] offset;
    private final int[] a;
    private final int[] b;
    private final int regions;

    RandomNetwork(int nodes, int links, Random random) {
        this(nodes, links, random, 1, 0);
    }

    RandomNetwork(int nodes, int links, Random random, int regions, double crossing) {
        if (regions < 1 || regions > nodes || !(crossing >= 0 && crossing <= 1)
                || (regions > 1 && links > (long) nodes * nodes / regions / 2)) {
            throw new UserError(regions + " regions of " + nodes + " nodes with " + links
                    + " links, " + crossing + " of them between regions, cannot be drawn");
        }
        this.regions = regions;
        this.names = new String[nodes];
        if (links < nodes - 1 || links > (long) nodes * (nodes - 1) / 2) {
            throw new UserError(nodes + " nodes cannot be connected by " + links + " links");
        }
        drift = new double[nodes];
        offset = new long[nodes];
        for (int v = 0; v < nodes; v++) {
            names[v] = regions == 1 ? String.format("n%06d", v) : String.format("r%03d.n%06d", region(v), v);
            drift[v] = (random.nextDouble() * 2 - 1) * 1e-4;
            offset[v] = (long) ((random.nextDouble() * 2 - 1) * 3.6e12);
        }
        a = new int[links];
        b = new int[links];
        Set<Long> seen = new HashSet<>();
        int n = 0;
        for (int v = 1; v < nodes; v++) {
            int first = first(region(v));
            n = add(v, v > first ? first + random.nextInt(v - first) : random.nextInt(v), n, seen);
        }
        while (n < links) {
            int u = random.nextInt(nodes);
            int r = region(u);
            if (regions > 1 && random.nextDouble() < crossing) {
                int other = random.nextInt(regions - 1);
                r = other >= r ? other + 1 : other;
            }
            n = add(u, first(r) + random.nextInt(first(r + 1) - first(r)), n, seen);
        }
    }

    /** The region of node v: its block of consecutive numbers. */
    int region(int v) {
        return (int) ((long) v * regions / names.length);
    }

    /** The region of a node by its name, as {@link #REGION_PATTERN} finds it. */
    String region(String name) {
        return regions == 1 ? "" : name.substring(0, name.indexOf('.'));
    }

    /** A node's number by its name. */
    static int index(String name) {
        return Integer.parseInt(name.substring(name.lastIndexOf('n') + 1));
    }

    /** The first node of region r (the node count for r = regions). */
    private int first(int r) {
        return (int) (((long) r * names.length + regions - 1) / regions);
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

    /**
     * A random estimate of a link consistent with the true clocks at true time {@code latest}: half-widths
     * 25–250 µs, the estimate anywhere within half of that, slope accuracies 10^-8 to 10^-6.
     */
    LinkEstimate estimate(int link, long latest, Random random) {
        int u = a[link];
        int v = b[link];
        // x_b = offset_b + (1 + drift_b)·t and x_a likewise: slope (1 + drift_b)/(1 + drift_a)
        double slope = slope(link);
        long halfWidthPs = 25_000_000 + random.nextInt(225_000_000);
        double errorNs = (random.nextDouble() * 2 - 1) * halfWidthPs / 2e3;
        double accuracy = Math.pow(10, -8 + 2 * random.nextDouble());
        DoubleDouble s = DoubleDouble.of(slope);
        DoubleDouble off = DoubleDouble.of(offset[v]).add(DoubleDouble.of(errorNs))
                .subtract(s.multiply(DoubleDouble.of(offset[u])));
        long x = local(u, latest);
        long up = halfWidthPs + Math.round(errorNs * 1e3);
        long down = halfWidthPs - Math.round(errorNs * 1e3);
        return LinkEstimate.accurate(LinkKey.between(names[u], names[v]), ClockMap.of(s, off), accuracy,
                slope - accuracy / 2, slope + accuracy / 2, x, up, down);
    }

    /** The link's true relation's slope, b's clock against a's. */
    double slope(int link) {
        return (1 + drift[b[link]]) / (1 + drift[a[link]]);
    }
}
