package io.tracesync.core.network;

import io.tracesync.core.network.NetworkIntervals.Component;
import java.util.Arrays;

/**
 * The arcs of one system, two per link: over every link on the arcs the component keeps (their weights set per
 * link, the others left out), or for the tree's n − 1 links added one by one.
 */
final class LinkArcs {

    private final Component component;
    private final long[] weights;
    private final DifferenceConstraints added;
    private final int[] arcLink;

    LinkArcs(Component component, int n, int links, boolean onKeptArcs) {
        this.component = component;
        if (onKeptArcs) {
            weights = new long[2 * component.links().length];
            Arrays.fill(weights, LinkEstimate.UNBOUNDED);
            added = null;
            arcLink = null;
        } else {
            weights = null;
            added = new DifferenceConstraints(n, 2 * links);
            arcLink = new int[2 * links];
        }
    }

    /** Link l from a to b: x_a − x_b ≤ {@code toA}, x_b − x_a ≤ {@code toB}. */
    void link(int l, int a, int b, long toA, long toB) {
        if (weights != null) {
            weights[2 * l] = toA;
            weights[2 * l + 1] = toB;
        } else {
            arcLink[added.add(b, a, toA)] = l;
            arcLink[added.add(a, b, toB)] = l;
        }
    }

    DifferenceConstraints system() {
        return weights != null ? new DifferenceConstraints(component.arcs(), weights) : added;
    }

    /** The link an arc of {@link #system} belongs to. */
    int linkOf(int arc) {
        return weights != null ? arc >> 1 : arcLink[arc];
    }
}
