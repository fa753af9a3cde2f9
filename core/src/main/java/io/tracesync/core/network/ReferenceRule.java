package io.tracesync.core.network;

import java.util.Locale;

/** How each component's reference node is chosen when none is pinned ({@link ReferenceNodes}). */
public enum ReferenceRule {
    /**
     * The node with the most links taking part in the spanning forest, of those the smallest name: it moves only
     * when links start or stop taking part, not when their accuracies move.
     */
    MOST_LINKS("most-links"),
    /**
     * The centroid of the spanning tree, of two the smaller name: the node of least total path cost to all others
     * [Jabbarifar 2013, ch. 4], which moves whenever the tree changes shape.
     */
    CENTROID("centroid");

    private final String label;

    ReferenceRule(String label) {
        this.label = label;
    }

    /** The name users write: {@code most-links} or {@code centroid}. */
    public String label() {
        return label;
    }

    public static ReferenceRule parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (ReferenceRule r : values()) {
            if (v.equals(r.label)) {
                return r;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a reference rule (most-links or centroid)");
    }
}
