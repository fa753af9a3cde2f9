package io.tracesync.core.network;

import io.tracesync.console.UserError;
import io.tracesync.core.collect.IncidenceLists;
import io.tracesync.core.collect.IntArrays;
import io.tracesync.core.collect.LongIntMap;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.Arrays;
import java.util.Random;
import java.util.function.IntConsumer;

/**
 * The dynamic-network experiment of [Jabbarifar 2013, Tables 4.1/5.1, §4.7.1, §5.6.1]: n vertices appear gradually (a
 * quarter as new two-vertex trees, half linked to an existing vertex), random links between existing vertices join
 * trees and, once every vertex exists, almost all of them close cycles; a link drawn twice gets a lower weight (the
 * updateEdge of [Jabbarifar 2013]). Extended with explicit weight decreases, increases and removals of random existing
 * links. Deterministic by seed. Also the naive from-scratch baseline on the same workload.
 */
public final class NetworkBenchmark {

    /** The workload. Percentages are of all operations. */
    public record Config(int nodes, int ops, long seed, double decreasePercent, double increasePercent,
            double removePercent, int drainEvery) {
    }

    /** What one run measured. */
    public record Result(Config config, NetworkStats stats, long opNanos, long referenceNanos, long drainNanos) {

        /** Time in the spanning forest itself (operations minus reference-node work). */
        public long mstNanos() {
            return opNanos - referenceNanos;
        }
    }

    /**
     * The naive baseline: a from-scratch centroid after every operation that changed the forest (measured in
     * full, and checked against the incremental one), and a from-scratch Kruskal forest and factor propagation
     * timed on samples and extrapolated to every operation (resp. every forest change) that needs them.
     */
    public record Naive(long referenceNanos, long referenceRuns, long referenceMismatches, long mstNanosPerRun,
            long mstRuns, long propagationNanosPerRun, long propagationRuns, int samples) {
    }

    private static final int MAPS = 4096;
    /** Operations generated ahead of each timed stretch. */
    private static final int BATCH = 1024;

    private final Config config;
    private final Random random;
    private final String[] names;
    private final ClockMap[] maps = new ClockMap[MAPS];
    /** Pair to link index plus one. */
    private final LongIntMap edgeIndex = new LongIntMap();
    private int[] edgeU = new int[1024];
    private int[] edgeV = new int[1024];
    private double[] edgeW = new double[1024];
    private int edgeCount;
    private int vertices;
    /** Per workload vertex, its id in the network being run, 0 until it appears. */
    private int[] ids;
    private final IntConsumer changed = v -> { };

    public NetworkBenchmark(Config config) {
        if (config.nodes() < 2 || config.ops() < 1) {
            throw new UserError("need at least 2 nodes and 1 operation");
        }
        this.config = config;
        this.random = new Random(config.seed());
        this.names = new String[config.nodes()];
        for (int i = 0; i < names.length; i++) {
            names[i] = "n" + i;
        }
        for (int i = 0; i < MAPS; i++) {
            maps[i] = ClockMap.of(DoubleDouble.of(1 + (random.nextDouble() - 0.5) * 2e-4),
                    DoubleDouble.of((random.nextDouble() - 0.5) * 2e12));
        }
    }

    /**
     * One operation on the link between vertices u and v (ordered as the link's key): its new estimate, or its
     * removal when {@code estimate} is null.
     */
    private record Op(int u, int v, LinkEstimate estimate) {
    }

    /** Runs the workload through {@code net}, draining every {@code drainEvery} operations and at the end. */
    public Result run(NetworkSync net) {
        return run(net, null);
    }

    /**
     * The timed loop: per operation, the ids of the link's ends (a vertex's first appearance adds it to the
     * network) and the update or removal on them, i.e. the forest and reference-node work of [Jabbarifar 2013]'s
     * experiment; and the drains, which pass the changed nodes' ids. Generating the workload is not timed: it is
     * done a batch of operations ahead (one operation at a time beside the naive baseline), so that the clock is
     * read per batch rather than around every operation.
     */
    private Result run(NetworkSync net, NaiveBaseline naive) {
        net.stats().enableTiming();
        ids = new int[names.length];
        int drainEvery = config.drainEvery();
        Op[] batch = new Op[naive == null ? BATCH : 1];
        long opNanos = 0;
        long drainNanos = 0;
        for (int i = 0; i < config.ops(); ) {
            int n = Math.min(batch.length, config.ops() - i);
            if (drainEvery > 0) {
                n = Math.min(n, drainEvery - i % drainEvery);
            }
            for (int k = 0; k < n; k++) {
                batch[k] = next();
            }
            long structureBefore = naive == null ? 0 : naive.structuralChanges(net.stats());
            long t0 = System.nanoTime();
            for (int k = 0; k < n; k++) {
                apply(net, batch[k]);
            }
            opNanos += System.nanoTime() - t0;
            if (naive != null) {
                naive.afterOp(net, id(net, batch[0].u()), id(net, batch[0].v()), structureBefore, i);
            }
            i += n;
            if (drainEvery > 0 && i % drainEvery == 0) {
                long t2 = System.nanoTime();
                net.drain(changed);
                drainNanos += System.nanoTime() - t2;
            }
        }
        long t2 = System.nanoTime();
        net.drain(changed);
        drainNanos += System.nanoTime() - t2;
        return new Result(config, net.stats(), opNanos, net.stats().referenceNanos, drainNanos);
    }

    private void apply(NetworkSync net, Op op) {
        int a = id(net, op.u());
        int b = id(net, op.v());
        if (op.estimate() == null) {
            net.remove(a, b);
        } else {
            net.update(a, b, op.estimate());
        }
    }

    /** Runs the workload incrementally and, beside it, the naive baseline ({@code samples} sampled states). */
    public Naive runNaive(NetworkSync net, int samples) {
        NaiveBaseline naive = new NaiveBaseline(Math.max(1, config.ops() / Math.max(1, samples)));
        run(net, naive);
        return naive.result(samples);
    }

    /** The network's id of workload vertex u, adding it at its first appearance. */
    private int id(NetworkSync net, int u) {
        int id = ids[u];
        return id != 0 ? id : (ids[u] = net.node(names[u]));
    }

    private Op next() {
        double p = random.nextDouble() * 100;
        if (edgeCount > 0 && p < config.removePercent()) {
            int i = random.nextInt(edgeCount);
            Op op = new Op(edgeU[i], edgeV[i], null);
            removeEdge(i);
            return op;
        }
        p -= config.removePercent();
        if (edgeCount > 0 && p < config.increasePercent()) {
            int i = random.nextInt(edgeCount);
            return reweigh(i, edgeW[i] * (1 + random.nextDouble()));
        }
        p -= config.increasePercent();
        if (edgeCount > 0 && p < config.decreasePercent()) {
            int i = random.nextInt(edgeCount);
            return reweigh(i, edgeW[i] * (0.5 + random.nextDouble() / 2));
        }
        if (vertices < names.length && (vertices < 2 || random.nextBoolean())) {
            if (vertices < 2 || (vertices <= names.length - 2 && random.nextInt(3) == 0)) {
                vertices += 2;
                return link(vertices - 2, vertices - 1);
            }
            vertices++;
            return link(vertices - 1, random.nextInt(vertices - 1));
        }
        int u = random.nextInt(vertices);
        int v = random.nextInt(vertices - 1);
        return link(u, v >= u ? v + 1 : v);
    }

    private Op link(int u, int v) {
        int i = edgeIndex.get(pair(u, v)) - 1;
        if (i >= 0) {
            return reweigh(i, edgeW[i] * (0.5 + random.nextDouble() / 2));
        }
        if (edgeCount == edgeU.length) {
            edgeU = Arrays.copyOf(edgeU, 2 * edgeCount);
            edgeV = Arrays.copyOf(edgeV, 2 * edgeCount);
            edgeW = Arrays.copyOf(edgeW, 2 * edgeCount);
        }
        edgeU[edgeCount] = u;
        edgeV[edgeCount] = v;
        edgeIndex.put(pair(u, v), edgeCount + 1);
        return reweigh(edgeCount++, random.nextDouble() * 1e-6);
    }

    private Op reweigh(int i, double w) {
        edgeW[i] = w;
        LinkEstimate e = estimate(i);
        return names[edgeU[i]] == e.key().a() ? new Op(edgeU[i], edgeV[i], e) : new Op(edgeV[i], edgeU[i], e);
    }

    /** Link i's current estimate: a fixed map per link, bounds growing with the weight. */
    private LinkEstimate estimate(int i) {
        double w = edgeW[i];
        ClockMap map = maps[(edgeU[i] * 31 + edgeV[i]) & (MAPS - 1)];
        long bound = 1 + (long) (w * 1e15);
        return LinkEstimate.accurate(LinkKey.between(names[edgeU[i]], names[edgeV[i]]), map, w,
                map.slope().hi() - w, map.slope().hi() + w, 0, bound, bound);
    }

    private void removeEdge(int i) {
        edgeIndex.remove(pair(edgeU[i], edgeV[i]));
        edgeCount--;
        if (i != edgeCount) {
            edgeU[i] = edgeU[edgeCount];
            edgeV[i] = edgeV[edgeCount];
            edgeW[i] = edgeW[edgeCount];
            edgeIndex.put(pair(edgeU[i], edgeV[i]), i + 1);
        }
    }

    private static long pair(int u, int v) {
        return (u < v ? ((long) u << 32) | v : ((long) v << 32) | u) * 0x9E3779B97F4A7C15L;
    }

    /** The from-scratch computations, run beside the incremental ones on the same states. */
    private final class NaiveBaseline {
        private final int sampleEvery;
        private long referenceNanos;
        private long referenceRuns;
        private long mismatches;
        private long mstNanos;
        private long mstSamples;
        private long propagationNanos;
        private long propagationSamples;
        private long propagationRuns;
        private int[] order = new int[16];
        private int[] parentEdge = new int[16];
        private int[] size = new int[16];
        private int[] seen = new int[16];
        private int[] heaviest = new int[16];
        private Factor[] factors = new Factor[16];
        private int stamp;

        NaiveBaseline(int sampleEvery) {
            this.sampleEvery = sampleEvery;
        }

        long structuralChanges(NetworkStats s) {
            return s.newTrees + s.insertions + s.joins + s.cycleKept + s.replacements + s.splits;
        }

        void afterOp(NetworkSync net, int a, int b, long structureBefore, int i) {
            SpanningForest forest = net.forest();
            boolean changed = structuralChanges(net.stats()) != structureBefore;
            if (changed) {
                propagationRuns++;
                long t0 = System.nanoTime();
                int ca = centroid(forest, a);
                int cb = forest.references().centroidOf(b) == forest.references().centroidOf(a) ? ca
                        : centroid(forest, b);
                referenceNanos += System.nanoTime() - t0;
                referenceRuns++;
                if (ca != forest.references().centroidOf(a) || cb != forest.references().centroidOf(b)) {
                    mismatches++;
                }
            }
            if (i % sampleEvery == 0) {
                long t0 = System.nanoTime();
                kruskal();
                mstNanos += System.nanoTime() - t0;
                mstSamples++;
                t0 = System.nanoTime();
                propagate(forest, forest.references().referenceOf(a));
                propagationNanos += System.nanoTime() - t0;
                propagationSamples++;
            }
        }

        /** The tree of x in depth-first order from x, with parent edges; returns its size. */
        private int enumerate(SpanningForest forest, int x) {
            stamp++;
            IncidenceLists tree = forest.treeEdges();
            int n = 0;
            order = IntArrays.grow(order, 1);
            order[n++] = x;
            parentEdge = IntArrays.grow(parentEdge, x + 1);
            seen = IntArrays.grow(seen, x + 1);
            parentEdge[x] = 0;
            seen[x] = stamp;
            for (int k = 0; k < n; k++) {
                int v = order[k];
                for (int j = 0, d = tree.count(v); j < d; j++) {
                    int e = tree.edge(v, j);
                    int y = tree.neighbor(v, j);
                    seen = IntArrays.grow(seen, y + 1);
                    if (seen[y] != stamp) {
                        seen[y] = stamp;
                        parentEdge = IntArrays.grow(parentEdge, y + 1);
                        parentEdge[y] = e;
                        order = IntArrays.grow(order, n + 1);
                        order[n++] = y;
                    }
                }
            }
            return n;
        }

        /** The centroid of x's tree from scratch: subtree sizes in reverse breadth-first order. */
        private int centroid(SpanningForest forest, int x) {
            int n = enumerate(forest, x);
            size = IntArrays.grow(size, forest.lct().capacity());
            heaviest = IntArrays.grow(heaviest, forest.lct().capacity());
            int best = 0;
            int bestHeaviest = Integer.MAX_VALUE;
            for (int k = n - 1; k >= 0; k--) {
                int v = order[k];
                size[v] += 1;
                int h = Math.max(heaviest[v], n - size[v]);
                if (h < bestHeaviest || (h == bestHeaviest
                        && forest.name(v).compareTo(forest.name(best)) < 0)) {
                    best = v;
                    bestHeaviest = h;
                }
                if (parentEdge[v] != 0) {
                    int p = forest.other(parentEdge[v], v);
                    size[p] += size[v];
                    heaviest[p] = Math.max(heaviest[p], size[v]);
                }
            }
            for (int k = 0; k < n; k++) {
                size[order[k]] = 0;
                heaviest[order[k]] = 0;
            }
            return best;
        }

        private void propagate(SpanningForest forest, int r) {
            int n = enumerate(forest, r);
            if (factors.length < forest.lct().capacity()) {
                factors = new Factor[Math.max(forest.lct().capacity(), 2 * factors.length)];
            }
            Factor[] f = factors;
            f[r] = Factor.REFERENCE;
            for (int k = 1; k < n; k++) {
                int v = order[k];
                int e = parentEdge[v];
                int p = forest.other(e, v);
                LinkEstimate link = linkOf(forest, e);
                f[v] = f[p].child(forest.endA(e) == v ? Hop.forward(link) : Hop.backward(link));
            }
        }

        private LinkEstimate linkOf(SpanningForest forest, int e) {
            int u = Integer.parseInt(forest.name(forest.endA(e)).substring(1));
            int v = Integer.parseInt(forest.name(forest.endB(e)).substring(1));
            return estimate(edgeIndex.get(pair(u, v)) - 1);
        }

        /** Kruskal over every current link, with union-find (path halving, union by size). */
        private void kruskal() {
            Integer[] idx = new Integer[edgeCount];
            for (int i = 0; i < edgeCount; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, (x, y) -> EdgeOrder.compare(edgeW[x], names[Math.min(edgeU[x], edgeV[x])],
                    names[Math.max(edgeU[x], edgeV[x])], edgeW[y], names[Math.min(edgeU[y], edgeV[y])],
                    names[Math.max(edgeU[y], edgeV[y])]));
            int[] parent = new int[names.length];
            int[] rank = new int[names.length];
            for (int i = 0; i < parent.length; i++) {
                parent[i] = i;
            }
            int taken = 0;
            for (int i : idx) {
                int x = find(parent, edgeU[i]);
                int y = find(parent, edgeV[i]);
                if (x != y) {
                    if (rank[x] < rank[y]) {
                        int t = x;
                        x = y;
                        y = t;
                    }
                    parent[y] = x;
                    rank[x] += rank[x] == rank[y] ? 1 : 0;
                    taken++;
                }
            }
            if (taken > names.length) {
                throw new IllegalStateException();
            }
        }

        private int find(int[] parent, int x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        }

        Naive result(int samples) {
            return new Naive(referenceNanos, referenceRuns, mismatches, mstNanos / Math.max(1, mstSamples),
                    config.ops(), propagationNanos / Math.max(1, propagationSamples), propagationRuns, samples);
        }
    }

}
