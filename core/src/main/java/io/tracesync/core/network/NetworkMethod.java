package io.tracesync.core.network;

import java.util.Locale;

/** How a node's factor and its guaranteed interval are obtained from the links of its component. */
public enum NetworkMethod {
    /**
     * The factor composed along the spanning tree path to the reference [Jabbarifar 2013, §5.5.4]; its interval is
     * the sum of the path's link intervals at the evaluation time.
     */
    TREE("tree"),
    /**
     * The interval from every usable link of the component (shortest paths in the system of difference
     * constraints), the estimate a weighted least-squares fit over every link, kept inside it.
     */
    ALL_LINKS("all-links");

    private final String label;

    NetworkMethod(String label) {
        this.label = label;
    }

    /** The name users write: {@code all-links} or {@code tree}. */
    public String label() {
        return label;
    }

    public static NetworkMethod parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (NetworkMethod m : values()) {
            if (v.equals(m.label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a network method (all-links or tree)");
    }
}
