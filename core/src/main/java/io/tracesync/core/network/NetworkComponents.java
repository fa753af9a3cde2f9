package io.tracesync.core.network;

import io.tracesync.core.collect.IntArrays;
import io.tracesync.core.numeric.ClockMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The components of the network as {@link NetworkIntervals} reads them — per component its nodes by name (the
 * reference first), their tree factors, and every usable link between two of its nodes, ordered by its ends' names —
 * kept between evaluations. Gathering them afresh is a pass over every link in an order unrelated to memory, which
 * at 600,000 links costs as much as one of the systems' searches; while no node or link comes or goes and no node
 * changes component, they are brought up to date in place instead: the links updated and the tree factors changed
 * since the last call, the tree flags, and the places of a component whose reference moved. Each component counts
 * its changes, so that the answer of one nothing changed in is kept ({@link NetworkIntervals.Component#kept}). What
 * {@link #current} returns is always what a new gathering of the same state would be ({@code NetworkSyncTest}).
 */
final class NetworkComponents {

    private final SpanningForest forest;
    private final FactorPropagation factors;
    /** The components of the last call; null when they must be gathered again. */
    private List<NetworkIntervals.Component> components;
    /** Per component, its links' edge ids in row order. */
    private int[][] edgeIds = new int[0][];
    /** Per component, its nodes by name, and its links' ends as ranks in that order (a, b per row). */
    private int[][] members = new int[0][];
    private int[][] endOrders = new int[0][];
    /** Per component, the reference its nodes are placed for. */
    private int[] reference = new int[0];
    /** Per edge id, its component (−1: none) and row; per node id, its component (−1: none) and rank by name in it. */
    private int[] componentOfEdge = new int[0];
    private int[] rowOfEdge = new int[0];
    private int[] componentOfNode = new int[0];
    private int[] orderOfNode = new int[0];
    /** Every node id in the order of the names, for the vertices known when sorted. */
    private int[] nameOrder = new int[0];
    private int[] changedLinks = new int[16];
    private int changedLinkCount;
    private int[] changedNodes = new int[16];
    private int changedNodeCount;

    NetworkComponents(SpanningForest forest, FactorPropagation factors) {
        this.forest = forest;
        this.factors = factors;
    }

    /** Edge e took a new estimate. */
    void linkChanged(int e) {
        if (components == null) {
            return; // they will be gathered afresh
        }
        if (changedLinkCount > componentOfEdge.length) {
            restructured(); // more changes than links: gathering afresh costs less than replaying them
            return;
        }
        changedLinks = IntArrays.grow(changedLinks, changedLinkCount + 1);
        changedLinks[changedLinkCount++] = e;
    }

    /**
     * The slack of edge e's four constraints at its component's last evaluation from every link
     * ({@link NetworkIntervals.Result#slack}), copied into {@code out}; false if unknown (no such evaluation, or the
     * components changed shape since).
     */
    boolean slack(int e, long[] out) {
        if (components == null || e >= componentOfEdge.length || componentOfEdge[e] < 0) {
            return false;
        }
        NetworkIntervals.Result r = components.get(componentOfEdge[e]).lastKept();
        if (r == null || r.slack() == null) {
            return false;
        }
        System.arraycopy(r.slack(), 4 * rowOfEdge[e], out, 0, 4);
        return true;
    }

    /** Node v's tree factor changed (a drain recomputed it). */
    void nodeChanged(int v) {
        if (components == null) {
            return;
        }
        if (changedNodeCount > componentOfNode.length) {
            restructured();
            return;
        }
        changedNodes = IntArrays.grow(changedNodes, changedNodeCount + 1);
        changedNodes[changedNodeCount++] = v;
    }

    /** A node or link came or went: gather again. */
    void restructured() {
        components = null;
        changedLinkCount = 0;
        changedNodeCount = 0;
    }

    /** The components of the state as of now, over node ids 1..vertices. */
    List<NetworkIntervals.Component> current(int vertices) {
        if (components != null && !samePartition(vertices)) {
            components = null;
        }
        if (components != null) {
            for (int k = 0; k < changedLinkCount && components != null; k++) {
                int e = changedLinks[k];
                if (e < componentOfEdge.length && componentOfEdge[e] >= 0) {
                    components.get(componentOfEdge[e]).setLink(rowOfEdge[e], factors.link(e));
                } else if (sameComponent(e)) {
                    components = null; // a link joined a component
                }
            }
        }
        if (components == null) {
            gather(vertices);
        } else {
            for (int g = 0; g < components.size(); g++) {
                if (factors.reference(members[g][0]) != reference[g]) {
                    place(g, factors.reference(members[g][0]));
                }
            }
            for (int k = 0; k < changedNodeCount; k++) {
                int v = changedNodes[k];
                if (v < componentOfNode.length && componentOfNode[v] >= 0) {
                    NetworkIntervals.Component c = components.get(componentOfNode[v]);
                    c.treeMaps()[placeOf(v)] = factors.factor(v).toReference();
                    c.changed();
                }
            }
            for (int g = 0; g < components.size(); g++) {
                boolean[] inTree = components.get(g).inTree();
                int[] ids = edgeIds[g];
                boolean moved = false;
                for (int l = 0; l < ids.length; l++) {
                    boolean now = forest.inTree(ids[l]);
                    moved |= inTree[l] != now;
                    inTree[l] = now;
                }
                if (moved) {
                    components.get(g).changed();
                }
            }
        }
        changedLinkCount = 0;
        changedNodeCount = 0;
        return components;
    }

    /**
     * Whether the nodes with a factor still fall into the components gathered, each component's nodes sharing one
     * reference of their own (which may have moved within it).
     */
    private boolean samePartition(int vertices) {
        if (componentOfNode.length != vertices + 1) {
            return false;
        }
        int[] referenceOfGroup = new int[components.size()];
        boolean[] taken = new boolean[vertices + 1];
        for (int v = 1; v <= vertices; v++) {
            int g = componentOfNode[v];
            if (!factors.known(v)) {
                if (g >= 0) {
                    return false;
                }
                continue;
            }
            int r = factors.reference(v);
            if (g < 0 || referenceOfGroup[g] != 0 && referenceOfGroup[g] != r) {
                return false;
            }
            if (referenceOfGroup[g] == 0) {
                if (taken[r]) {
                    return false;
                }
                taken[r] = true;
                referenceOfGroup[g] = r;
            }
        }
        return true;
    }

    /**
     * Every component of the last drain with its nodes (the reference first, then by name) and tree factors, and
     * its usable links ordered by their ends' names: the evaluation's floating-point sums then follow the names
     * alone, not the ids this instance happened to hand out, and a reference that moves within its component
     * moves no link. O(n + m) but for sorting the names of nodes added since.
     */
    private void gather(int vertices) {
        int[] byName = byName(vertices);
        componentOfNode = new int[vertices + 1];
        orderOfNode = new int[vertices + 1];
        Arrays.fill(componentOfNode, -1);
        int[] groupOfReference = new int[vertices + 1];
        Arrays.fill(groupOfReference, -1);
        int groups = 0;
        int[] size = new int[vertices + 1];
        for (int v = 1; v <= vertices; v++) {
            if (factors.known(v)) {
                int r = factors.reference(v);
                if (groupOfReference[r] < 0) {
                    groupOfReference[r] = groups++;
                }
                componentOfNode[v] = groupOfReference[r];
                size[componentOfNode[v]]++;
            }
        }
        members = new int[groups][];
        reference = new int[groups];
        int[] filled = new int[groups];
        for (int g = 0; g < groups; g++) {
            members[g] = new int[size[g]];
        }
        for (int v : byName) {
            if (factors.known(v)) {
                int g = componentOfNode[v];
                orderOfNode[v] = filled[g];
                members[g][filled[g]++] = v;
            }
        }
        int[] count = new int[groups];
        int limit = forest.edgeLimit();
        for (int e = 1; e < limit; e++) {
            if (sameComponent(e)) {
                count[componentOfNode[forest.endA(e)]]++;
            }
        }
        int[][] edges = new int[groups][];
        for (int g = 0; g < groups; g++) {
            edges[g] = new int[count[g]];
            count[g] = 0;
        }
        for (int e = 1; e < limit; e++) {
            if (sameComponent(e)) {
                int g = componentOfNode[forest.endA(e)];
                edges[g][count[g]++] = e;
            }
        }
        componentOfEdge = new int[limit];
        rowOfEdge = new int[limit];
        Arrays.fill(componentOfEdge, -1);
        edgeIds = new int[groups][];
        endOrders = new int[groups][];
        components = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            int n = members[g].length;
            int[] sorted = byEnds(edges[g], n);
            int m = sorted.length;
            int[] ends = new int[2 * m];
            LinkEstimate[] est = new LinkEstimate[m];
            boolean[] inTree = new boolean[m];
            for (int l = 0; l < m; l++) {
                int e = sorted[l];
                ends[2 * l] = orderOfNode[forest.endA(e)];
                ends[2 * l + 1] = orderOfNode[forest.endB(e)];
                est[l] = factors.link(e);
                inTree[l] = forest.inTree(e);
                componentOfEdge[e] = g;
                rowOfEdge[e] = l;
            }
            edgeIds[g] = sorted;
            endOrders[g] = ends;
            components.add(new NetworkIntervals.Component(new String[n], new ClockMap[n], new int[m], new int[m], est,
                    inTree));
            place(g, factors.reference(members[g][0]));
        }
    }

    /**
     * Places component g's nodes with {@code ref} as its reference: the reference at 0, the others by name; sets
     * their names, tree factors and the links' ends' places.
     */
    private void place(int g, int ref) {
        reference[g] = ref;
        NetworkIntervals.Component c = components.get(g);
        for (int v : members[g]) {
            int k = placeOf(v);
            c.names()[k] = forest.name(v);
            c.treeMaps()[k] = factors.factor(v).toReference();
        }
        int refOrder = orderOfNode[ref];
        int[] ends = endOrders[g];
        for (int l = 0; l < c.linkA().length; l++) {
            c.linkA()[l] = placeAt(ends[2 * l], refOrder);
            c.linkB()[l] = placeAt(ends[2 * l + 1], refOrder);
        }
        c.placesChanged();
    }

    /** The place of node v in its component: 0 for the reference, else its rank by name among the others, + 1. */
    private int placeOf(int v) {
        return placeAt(orderOfNode[v], orderOfNode[reference[componentOfNode[v]]]);
    }

    private static int placeAt(int order, int referenceOrder) {
        return order == referenceOrder ? 0 : order < referenceOrder ? order + 1 : order;
    }

    /** Every node id 1..vertices in the order of the names; sorted again only after nodes were added. */
    private int[] byName(int vertices) {
        if (nameOrder.length != vertices) {
            Integer[] ids = new Integer[vertices];
            for (int v = 1; v <= vertices; v++) {
                ids[v - 1] = v;
            }
            Arrays.sort(ids, Comparator.comparing(forest::name));
            nameOrder = new int[vertices];
            for (int k = 0; k < vertices; k++) {
                nameOrder[k] = ids[k];
            }
        }
        return nameOrder;
    }

    /** Whether edge slot e holds a link both of whose ends have a factor of one component. */
    private boolean sameComponent(int e) {
        if (e >= forest.edgeLimit() || !forest.live(e)) {
            return false;
        }
        int a = forest.endA(e);
        int b = forest.endB(e);
        return factors.known(a) && factors.known(b) && factors.reference(a) == factors.reference(b);
    }

    /** Edges ordered by their ends' names (a's, then b's): two stable counting sorts, O(n + m). */
    private int[] byEnds(int[] edges, int n) {
        int[] byB = countingSort(edges, e -> orderOfNode[forest.endB(e)], n);
        return countingSort(byB, e -> orderOfNode[forest.endA(e)], n);
    }

    private static int[] countingSort(int[] edges, java.util.function.IntUnaryOperator key, int n) {
        int[] start = new int[n + 1];
        for (int e : edges) {
            start[key.applyAsInt(e) + 1]++;
        }
        for (int k = 0; k < n; k++) {
            start[k + 1] += start[k];
        }
        int[] out = new int[edges.length];
        for (int e : edges) {
            out[start[key.applyAsInt(e)]++] = e;
        }
        return out;
    }
}
