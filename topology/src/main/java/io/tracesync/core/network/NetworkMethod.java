package io.tracesync.core.network;

/** How a node's factor and its guaranteed interval are obtained from the links of its component. */
public enum NetworkMethod {
    /**
     * The factor composed along the spanning tree path to the reference [Jabbarifar 2013, §5.5.4]; its interval is
     * the sum of the path's link intervals at the evaluation time.
     */
    TREE,
    /**
     * The interval from every usable link of the component (shortest paths in the system of difference
     * constraints), the estimate a weighted least-squares fit of the offsets over every link, kept inside it.
     */
    ALL_LINKS
}
