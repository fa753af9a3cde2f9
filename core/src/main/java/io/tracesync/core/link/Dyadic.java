package io.tracesync.core.link;

import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * An exact binary fraction num / 2^shift: what a double-double map's value at an integer time is. Poirier's bounds
 * compare it with the envelopes' rationals by integer products and one division, with neither gcd nor decimal
 * expansion of the doubles.
 */
record Dyadic(BigInteger num, int shift) {

    static Dyadic of(DoubleDouble d) {
        return of(d.hi()).plus(of(d.lo()));
    }

    static Dyadic of(double x) {
        if (x == 0) {
            return new Dyadic(BigInteger.ZERO, 0);
        }
        long bits = Double.doubleToRawLongBits(x);
        long m = bits & 0x000F_FFFF_FFFF_FFFFL;
        int e;
        if (Math.getExponent(x) < Double.MIN_EXPONENT) {
            e = Double.MIN_EXPONENT - 52; // subnormal
        } else {
            m |= 1L << 52;
            e = Math.getExponent(x) - 52;
        }
        int zeros = Long.numberOfTrailingZeros(m);
        m >>= zeros;
        e += zeros;
        BigInteger n = BigInteger.valueOf(x < 0 ? -m : m);
        return e >= 0 ? new Dyadic(n.shiftLeft(e), 0) : new Dyadic(n, -e);
    }

    Dyadic times(long t) {
        return new Dyadic(num.multiply(BigInteger.valueOf(t)), shift);
    }

    Dyadic plus(Dyadic o) {
        int k = Math.max(shift, o.shift);
        return new Dyadic(num.shiftLeft(k - shift).add(o.num.shiftLeft(k - o.shift)), k);
    }

    /** this − y, rounded to a double (correctly, then scaled exactly unless beyond the doubles' range). */
    double minus(long y) {
        return Math.scalb(num.subtract(BigInteger.valueOf(y).shiftLeft(shift)).doubleValue(), -shift);
    }

    /** The sign of this − y. */
    int compareTo(long y) {
        return num.compareTo(BigInteger.valueOf(y).shiftLeft(shift));
    }

    /** r - this, in units of 10^-3 rounded up: scale 3. */
    BigDecimal ceilPicosBelow(Rational r) {
        return ceilPicos(r.numerator().shiftLeft(shift).subtract(num.multiply(r.denominator())), r.denominator());
    }

    /** this - r, in units of 10^-3 rounded up: scale 3. */
    BigDecimal ceilPicosAbove(Rational r) {
        return ceilPicos(num.multiply(r.denominator()).subtract(r.numerator().shiftLeft(shift)), r.denominator());
    }

    /** ceil(1000 n / (den 2^shift)) / 1000, den &gt; 0. */
    private BigDecimal ceilPicos(BigInteger n, BigInteger den) {
        BigInteger[] qr = n.multiply(BigInteger.valueOf(1000)).divideAndRemainder(den.shiftLeft(shift));
        return new BigDecimal(qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0], 3);
    }
}
