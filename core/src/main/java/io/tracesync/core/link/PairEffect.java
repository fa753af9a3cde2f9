package io.tracesync.core.link;

/** What one matched pair did to a link. */
public enum PairEffect {
    /**
     * On or outside the corridor: cannot change L_min, L_max or any bound [Jabbarifar 2013, Definition 6]; not
     * stored.
     */
    REDUNDANT,
    /** Strictly inside the corridor: stored, the corridor narrowed (bounds, and possibly L_min/L_max, changed). */
    NARROWED,
    /** Made the constraints infeasible: the epoch failed (Definition 5). */
    FAILED,
    /** Older than the sliding horizon before the latest time: counted, not used. */
    STALE
}
