package io.tracesync.core.numeric;

import java.math.BigInteger;

/**
 * Exact geometric predicates on int64 points. The orientation determinant needs 65-bit differences and
 * 130-bit products; the fast path covers differences that fit a long (all realistic timestamps) with 128-bit
 * products from {@link Math#multiplyHigh}, and anything larger falls back to BigInteger. No rounding anywhere.
 */
public final class Exact {

    private Exact() {
    }

    /**
     * Sign of the orientation determinant (b - a) x (c - a): positive when a, b, c turn counter-clockwise. With
     * a.x &lt; b.x, positive means c lies strictly above the line through a and b, zero on it, negative below.
     */
    public static int orientation(long ax, long ay, long bx, long by, long cx, long cy) {
        long dx1 = bx - ax;
        long dy1 = by - ay;
        long dx2 = cx - ax;
        long dy2 = cy - ay;
        if (overflows(bx, ax, dx1) || overflows(by, ay, dy1) || overflows(cx, ax, dx2) || overflows(cy, ay, dy2)) {
            return slowOrientation(ax, ay, bx, by, cx, cy);
        }
        return compareProducts(dx1, dy2, dy1, dx2);
    }

    /** Compares p*q with r*s exactly: the sign of p*q - r*s. */
    public static int compareProducts(long p, long q, long r, long s) {
        long hi1 = Math.multiplyHigh(p, q);
        long hi2 = Math.multiplyHigh(r, s);
        if (hi1 != hi2) {
            return hi1 < hi2 ? -1 : 1;
        }
        return Long.compareUnsigned(p * q, r * s);
    }

    /** True when {@code diff = a - b} overflowed (Hacker's Delight 2-13). */
    private static boolean overflows(long a, long b, long diff) {
        return ((a ^ b) & (a ^ diff)) < 0;
    }

    static int slowOrientation(long ax, long ay, long bx, long by, long cx, long cy) {
        BigInteger x0 = BigInteger.valueOf(ax);
        BigInteger y0 = BigInteger.valueOf(ay);
        BigInteger dx1 = BigInteger.valueOf(bx).subtract(x0);
        BigInteger dy1 = BigInteger.valueOf(by).subtract(y0);
        BigInteger dx2 = BigInteger.valueOf(cx).subtract(x0);
        BigInteger dy2 = BigInteger.valueOf(cy).subtract(y0);
        return dx1.multiply(dy2).compareTo(dy1.multiply(dx2));
    }
}
