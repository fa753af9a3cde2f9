package io.tracesync.client;

import java.math.BigInteger;

/**
 * The conversion computed independently of BigDecimal, for the tests: every double is m·2^e with integer m, so
 * slope·t + offset is an integer numerator over 2^k, and rounding is integer division.
 */
final class DyadicSum {

    private final BigInteger numerator;
    private final int shift;

    private DyadicSum(BigInteger numerator, int shift) {
        this.numerator = numerator;
        this.shift = shift;
    }

    /** (slopeHi + slopeLo)·t + offsetHi + offsetLo. */
    static DyadicSum of(double slopeHi, double slopeLo, long t, double offsetHi, double offsetLo) {
        int k = 1100;
        BigInteger n = scaled(slopeHi, k).add(scaled(slopeLo, k)).multiply(BigInteger.valueOf(t))
                .add(scaled(offsetHi, k)).add(scaled(offsetLo, k));
        return new DyadicSum(n, k);
    }

    /** d·2^k, exactly (k large enough that it is an integer for every double). */
    private static BigInteger scaled(double d, int k) {
        if (d == 0) {
            return BigInteger.ZERO;
        }
        long bits = Double.doubleToRawLongBits(d);
        int exponent = (int) ((bits >>> 52) & 0x7ff);
        long mantissa = bits & 0xf_ffff_ffff_ffffL;
        if (exponent == 0) {
            exponent = 1;
        } else {
            mantissa |= 1L << 52;
        }
        BigInteger m = BigInteger.valueOf(mantissa).shiftLeft(exponent - 1075 + k);
        return d < 0 ? m.negate() : m;
    }

    /** floor(value + 1/2). */
    BigInteger nearest() {
        return numerator.add(BigInteger.ONE.shiftLeft(shift - 1)).shiftRight(shift);
    }

    /** floor(value + ps/1000) (ps may be negative). */
    BigInteger floorPlusPs(long ps) {
        return floorDiv(numerator.multiply(BigInteger.valueOf(1000)).add(BigInteger.valueOf(ps).shiftLeft(shift)));
    }

    /** ceil(value + ps/1000). */
    BigInteger ceilPlusPs(long ps) {
        return floorDiv(numerator.multiply(BigInteger.valueOf(1000)).add(BigInteger.valueOf(ps).shiftLeft(shift))
                .negate()).negate();
    }

    private BigInteger floorDiv(BigInteger thousandTimes) {
        BigInteger[] qr = thousandTimes.shiftRight(shift).divideAndRemainder(BigInteger.valueOf(1000));
        BigInteger q = qr[0];
        return qr[1].signum() < 0 ? q.subtract(BigInteger.ONE) : q;
    }
}
