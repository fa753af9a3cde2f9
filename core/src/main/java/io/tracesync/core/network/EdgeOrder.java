package io.tracesync.core.network;

/**
 * The strict total order of links that makes the minimum spanning forest unique: by weight, then by the names of
 * the two ends (a &lt; b). Equal weights are common in tests and rare in real data.
 */
final class EdgeOrder {

    private EdgeOrder() {
    }

    static int compare(double w1, String a1, String b1, double w2, String a2, String b2) {
        int c = Double.compare(w1, w2);
        if (c != 0) {
            return c;
        }
        c = a1.compareTo(a2);
        return c != 0 ? c : b1.compareTo(b2);
    }
}
