package io.tracesync.core.link;

/**
 * The relationship between two clocks as the messages of one link establish it ([Jabbarifar 2013, §3.6.2, Definitions
 * 1-5], with APPROXIMATE narrowed to "both directions, but a slope bound is still open"). As a link's quality
 * ({@link ConvexHullLink#quality()}), APPROXIMATE and ACCURATE always come with an estimate.
 */
public enum LinkQuality {
    /** No message in either direction: nothing is known. */
    ABSENT,
    /**
     * Messages in one direction only, one side of the corridor open; or, for a link, a corridor that admits no
     * increasing estimate yet (Duda's bisector falls).
     */
    INCOMPLETE,
    /** Both directions and a line separates them, but L_min or L_max is still unbounded. */
    APPROXIMATE,
    /** L_min and L_max both exist: slope and offset are bounded (Definition 1). */
    ACCURATE,
    /**
     * No line separates the two point sets: the linear clock model is violated (Definition 5). A link with a
     * horizon stays FAIL until its answering epoch has an estimate again.
     */
    FAIL
}
