package io.tracesync.core.network;

import java.util.Objects;

/**
 * A node's answer of {@link NetworkSync#evaluate}: its component (named by its reference), its factor, whose
 * bounds hold at the node's local time {@code factor.anchorNs()} — the node's time when the reference reads
 * {@code evaluatedAtNs}, as the node's tree factor places it — and grow away from it by the factor's rates; the
 * spanning tree's interval at the same time, relative to the same map ({@code treeUpPs}/{@code treeDownPs},
 * {@link LinkEstimate#UNBOUNDED} where the tree path has none); the method that gave the factor; and
 * {@code excursionPs}, how much of its bounds' width on each side is offset excursions as far as the network knows:
 * Φ per link of the bound's path and the node's own (docs/LINK-CORE.md, "Offset excursions") — counted on the fewest
 * links from the reference at the least Φ of a link, so that the factor gate compares changes with the rest
 * ({@link FactorGate}); 0 without excursions or where not counted.
 */
public record AnchoredFactor(String node, String reference, Factor factor, long evaluatedAtNs, long treeUpPs,
        long treeDownPs, NetworkMethod method, long excursionPs) {

    public AnchoredFactor {
        Objects.requireNonNull(factor, "factor");
        Objects.requireNonNull(method, "method");
        if (factor.upPs() < 0 || factor.downPs() < 0 || treeUpPs < 0 || treeDownPs < 0 || excursionPs < 0) {
            throw new IllegalArgumentException("negative bound for " + node);
        }
    }

    /** A factor whose excursions are not counted. */
    public AnchoredFactor(String node, String reference, Factor factor, long evaluatedAtNs, long treeUpPs,
            long treeDownPs, NetworkMethod method) {
        this(node, reference, factor, evaluatedAtNs, treeUpPs, treeDownPs, method, 0);
    }

    /** The node's answer as {@link NetworkSync#factor} gives it: component and factor. */
    public NodeFactor nodeFactor() {
        return new NodeFactor(node, reference, factor);
    }
}
