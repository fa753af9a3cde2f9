package io.tracesync.core.network;

/** A link of the minimum spanning forest, a &lt; b. */
public record TreeEdge(String a, String b, double weight) implements Comparable<TreeEdge> {

    @Override
    public int compareTo(TreeEdge o) {
        int c = a.compareTo(o.a);
        return c != 0 ? c : b.compareTo(o.b);
    }
}
