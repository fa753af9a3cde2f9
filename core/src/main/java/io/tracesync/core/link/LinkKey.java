package io.tracesync.core.link;

import java.util.Objects;

/** An unordered node pair, held as (a, b) with a &lt; b in string order. */
public record LinkKey(String a, String b) implements Comparable<LinkKey> {

    public LinkKey {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        if (a.compareTo(b) >= 0) {
            throw new IllegalArgumentException("link needs a < b: " + a + ", " + b);
        }
    }

    /** The link between two distinct nodes, in either order. */
    public static LinkKey between(String n1, String n2) {
        if (n1.equals(n2)) {
            throw new IllegalArgumentException("a node cannot send to itself: " + n1);
        }
        return n1.compareTo(n2) < 0 ? new LinkKey(n1, n2) : new LinkKey(n2, n1);
    }

    @Override
    public int compareTo(LinkKey o) {
        int c = a.compareTo(o.a);
        return c != 0 ? c : b.compareTo(o.b);
    }

    @Override
    public String toString() {
        return a + "~" + b;
    }
}
