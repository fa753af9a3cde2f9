package io.tracesync.core.network;

/** What ranks links for the minimum spanning forest: smaller is better. */
public enum LinkWeight {
    /** alpha_max - alpha_min of the link's corridor (thesis Eq. 3.13, §5.5.2). */
    SLOPE_ACCURACY,
    /** The larger of Poirier's two bounds at the link's latest time, in picoseconds. */
    BOUND_WIDTH
}
