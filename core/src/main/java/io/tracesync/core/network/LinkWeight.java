package io.tracesync.core.network;

import java.util.Locale;

/** What ranks links for the minimum spanning forest: smaller is better. */
public enum LinkWeight {
    /** alpha_max - alpha_min of the link's corridor [Jabbarifar 2013, Eq. 3.13, §5.5.2]. */
    SLOPE_ACCURACY,
    /** The larger of Poirier's two bounds at the link's latest time, in picoseconds. */
    BOUND_WIDTH;

    /** The name users write: {@code slope-accuracy}, {@code bound-width}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static LinkWeight parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (LinkWeight w : values()) {
            if (v.equals(w.label())) {
                return w;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a link weight (slope-accuracy or bound-width)");
    }
}
