package io.tracesync.sim;

import java.math.BigInteger;

/**
 * One linear piece of a simulated clock: its continuous local time goes from {@code localStart} at true time
 * {@code trueStart} to {@code localEnd} at {@code trueEnd}, linearly in between (all in integer ns, both ends
 * strictly increasing). Integer end points keep the truth exact: every value here is an exact floor or ceiling
 * of the rational line, computed without doubles.
 */
record ClockPiece(long trueStart, long localStart, long trueEnd, long localEnd) {

    ClockPiece {
        if (trueEnd <= trueStart || localEnd <= localStart) {
            throw new IllegalArgumentException("a clock piece must increase: (" + trueStart + ", " + localStart
                    + ") to (" + trueEnd + ", " + localEnd + ")");
        }
    }

    /** Floor of the continuous local time at true time {@code t}, {@code trueStart <= t <= trueEnd}. */
    long localFloor(long t) {
        return localStart + mulDiv(localEnd - localStart, t - trueStart, trueEnd - trueStart, false);
    }

    /**
     * The first integer true time at which the continuous local time reaches {@code m},
     * {@code localStart <= m <= localEnd}.
     */
    long firstTrueReaching(long m) {
        return trueStart + mulDiv(m - localStart, trueEnd - trueStart, localEnd - localStart, true);
    }

    /** {@code v} rounded down to a multiple of {@code resolution} (a clock that ticks every resolution ns). */
    static long floorTo(long v, long resolution) {
        return Math.floorDiv(v, resolution) * resolution;
    }

    /** {@code v} rounded up to a multiple of {@code resolution}. */
    static long ceilTo(long v, long resolution) {
        return -Math.floorDiv(-v, resolution) * resolution;
    }

    /** a·b/c rounded down or up, for a, b ≥ 0 and c > 0, exact (128-bit product, BigInteger when it overflows). */
    private static long mulDiv(long a, long b, long c, boolean up) {
        long lo = a * b;
        if (Math.multiplyHigh(a, b) == 0 && lo >= 0) {
            long q = lo / c;
            return up && q * c != lo ? q + 1 : q;
        }
        BigInteger[] qr = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
                .divideAndRemainder(BigInteger.valueOf(c));
        return (up && qr[1].signum() != 0 ? qr[0].add(BigInteger.ONE) : qr[0]).longValueExact();
    }
}
