package io.tracesync.core.network;

/** Saturating picosecond arithmetic for guaranteed bounds, rounding up; {@link LinkEstimate#UNBOUNDED} absorbs. */
final class Bounds {

    private static final double SAFETY = 1 + 0x1p-48;

    private Bounds() {
    }

    static long add(long a, long b) {
        long r = a + b;
        return a == LinkEstimate.UNBOUNDED || b == LinkEstimate.UNBOUNDED || ((a ^ r) & (b ^ r)) < 0
                ? LinkEstimate.UNBOUNDED : r;
    }

    /**
     * An upper bound of ps·factor for factor &gt; 0: the double product is within a relative 2^-52 of the exact
     * one for a factor held to that precision, and SAFETY covers it.
     */
    static long scaleUp(long ps, double factor) {
        if (ps == LinkEstimate.UNBOUNDED) {
            return ps;
        }
        double r = Math.ceil(ps * factor * SAFETY);
        return r >= 0x1p63 ? LinkEstimate.UNBOUNDED : (long) r;
    }
}
