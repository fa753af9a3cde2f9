package io.tracesync.core.numeric;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Objects;

/**
 * An exact rational number num/den in lowest terms with den &gt; 0. Used where the link core hands an exact
 * value to the outside (slopes and intercepts of L_min/L_max, hull values for Poirier's bounds); never on the
 * per-pair hot path.
 */
public final class Rational implements Comparable<Rational> {

    /** Precision at which rationals and double-doubles are printed: more than any internal value carries. */
    public static final MathContext PRINT = new MathContext(40);

    private final BigInteger num;
    private final BigInteger den;

    private Rational(BigInteger num, BigInteger den) {
        this.num = num;
        this.den = den;
    }

    public static Rational of(BigInteger num, BigInteger den) {
        if (den.signum() == 0) {
            throw new ArithmeticException("zero denominator");
        }
        if (den.signum() < 0) {
            num = num.negate();
            den = den.negate();
        }
        BigInteger g = num.gcd(den);
        if (!g.equals(BigInteger.ONE) && g.signum() != 0) {
            num = num.divide(g);
            den = den.divide(g);
        }
        return new Rational(num, den);
    }

    public static Rational of(long value) {
        return new Rational(BigInteger.valueOf(value), BigInteger.ONE);
    }

    public static Rational of(long num, long den) {
        return of(BigInteger.valueOf(num), BigInteger.valueOf(den));
    }

    public BigInteger numerator() {
        return num;
    }

    public BigInteger denominator() {
        return den;
    }

    public Rational add(Rational o) {
        return of(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
    }

    public Rational subtract(Rational o) {
        return of(num.multiply(o.den).subtract(o.num.multiply(den)), den.multiply(o.den));
    }

    public Rational multiply(Rational o) {
        return of(num.multiply(o.num), den.multiply(o.den));
    }

    public Rational divide(Rational o) {
        return of(num.multiply(o.den), den.multiply(o.num));
    }

    public Rational negate() {
        return new Rational(num.negate(), den);
    }

    public int signum() {
        return num.signum();
    }

    /** The nearest decimal with {@code mc}'s precision. */
    public BigDecimal toBigDecimal(MathContext mc) {
        return new BigDecimal(num).divide(new BigDecimal(den), mc);
    }

    /** The decimal as printed in reports: {@link #PRINT} significant digits, plain notation. */
    public String toDecimalString() {
        return toBigDecimal(PRINT).stripTrailingZeros().toPlainString();
    }

    @Override
    public int compareTo(Rational o) {
        return num.multiply(o.den).compareTo(o.num.multiply(den));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rational r && num.equals(r.num) && den.equals(r.den);
    }

    @Override
    public int hashCode() {
        return Objects.hash(num, den);
    }

    @Override
    public String toString() {
        return den.equals(BigInteger.ONE) ? num.toString() : num + "/" + den;
    }
}
