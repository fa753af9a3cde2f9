package io.tracesync.core.numeric;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * An immutable double-double: the unevaluated sum hi + lo of two finite doubles, normalized so that
 * hi = RN(hi + lo) (hence |lo| &lt;= ulp(hi)/2) and zeros are +0.0. About 106 significant bits.
 *
 * <p>Arithmetic follows Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic building blocks of
 * double-word arithmetic" (ACM TOMS 2017), with u = 2^-53: {@link #add} AccurateDWPlusDW (relative error
 * &lt;= 3u²), {@link #multiply} DWTimesDW3 (&lt;= 5u², FMA), {@link #divide} DWDivDW2 (&lt;= 15u² + 56u³), all
 * implemented in {@link DoubleDoubleArithmetic}. Results are meaningful only while they stay in the normal double
 * range.
 */
public final class DoubleDouble implements Comparable<DoubleDouble> {

    public static final DoubleDouble ZERO = new DoubleDouble(0, 0);
    public static final DoubleDouble ONE = new DoubleDouble(1, 0);

    private static final double TWO_63 = 0x1p63;
    private static final double LOG2_10 = 3.321928094887362;
    private static final BigInteger FIVE = BigInteger.valueOf(5);

    private final double hi;
    private final double lo;

    /** Callers guarantee hi = RN(hi + lo); adding +0.0 turns -0.0 into +0.0. */
    private DoubleDouble(double hi, double lo) {
        this.hi = hi + 0.0;
        this.lo = lo + 0.0;
    }

    /** The pair stored normalized at a[at] (hi), a[at + 1] (lo), as {@link DoubleDoubleArithmetic} does. */
    DoubleDouble(double[] a, int at) {
        this.hi = a[at];
        this.lo = a[at + 1];
    }

    /** Exactly v: the two 32-bit halves of v are exact doubles and TwoSum adds them without error. */
    public static DoubleDouble of(long v) {
        return twoSum(v & 0xFFFF_FFFF_0000_0000L, v & 0xFFFF_FFFFL);
    }

    public static DoubleDouble of(double v) {
        return new DoubleDouble(requireFinite(v), 0);
    }

    /**
     * p·q − r·s, exact in 128-bit integers (|p·q|, |r·s| &lt; 2^126 unless an argument is Long.MIN_VALUE), then
     * rounded once: relative error &lt;= 4u², and the sign (zero included) is exact.
     *
     * @throws ArithmeticException if an argument is Long.MIN_VALUE
     */
    public static DoubleDouble ofDifferenceOfProducts(long p, long q, long r, long s) {
        if (p == Long.MIN_VALUE || q == Long.MIN_VALUE || r == Long.MIN_VALUE || s == Long.MIN_VALUE) {
            throw new ArithmeticException("Long.MIN_VALUE in a cross product");
        }
        long lo = p * q - r * s;
        long hi = Math.multiplyHigh(p, q) - Math.multiplyHigh(r, s) - (Long.compareUnsigned(p * q, r * s) < 0 ? 1 : 0);
        if (hi < 0) {
            return ofUnsigned128(~hi + (lo == 0 ? 1 : 0), -lo).negate();
        }
        return ofUnsigned128(hi, lo);
    }

    /** hi·2^64 + lo, both unsigned, hi &lt; 2^63: the top 64 bits exactly, plus the rest rounded to a double. */
    private static DoubleDouble ofUnsigned128(long hi, long lo) {
        if (hi == 0) {
            return twoSum((lo >>> 32) * 0x1p32, lo & 0xFFFF_FFFFL);
        }
        int n = 64 - Long.numberOfLeadingZeros(hi); // 1..63 bits of hi below the top 64 bits of the value
        long top = hi << (64 - n) | lo >>> n;
        DoubleDouble t = twoSum(Math.scalb((top >>> 32) * 0x1p32, n), Math.scalb((double) (top & 0xFFFF_FFFFL), n));
        double rest = lo & (-1L >>> (64 - n)); // < 2^n <= 2^-63 of the value: its rounding costs < 2^-116
        double[] out = new double[2];
        DoubleDoubleArithmetic.add(t.hi, t.lo, rest, 0, out, 0);
        return new DoubleDouble(out, 0);
    }

    /** Exactly hi + lo, normalized. */
    public static DoubleDouble of(double hi, double lo) {
        return twoSum(requireFinite(hi), requireFinite(lo));
    }

    /**
     * The nearest double-double: hi = RN(v), lo = RN(v - hi), renormalized. Throws ArithmeticException when that
     * leaves the double range (|v| within half an ulp of 2^1024, where a tie renormalizes hi to infinity).
     */
    public static DoubleDouble of(BigDecimal v) {
        double hi = NearestDouble.of(v);
        if (Double.isFinite(hi)) {
            DoubleDouble x = twoSum(hi, NearestDouble.of(v.subtract(new BigDecimal(hi))));
            if (Double.isFinite(x.hi)) {
                return x;
            }
        }
        throw new ArithmeticException("beyond the double-double range: " + v);
    }

    /**
     * Inverse of {@link #toDecimalString()}: among the double-doubles whose 40-digit rounding is s, the one whose
     * low part has the fewest significant bits. parse(x.toDecimalString()) equals x whenever x's significant bits
     * span at most 126 bits (lo == 0 or ulp(lo) &gt;= 2^-126·|x|): every double, every long and every result
     * whose lo has no long run of zeros below hi. Beyond that 40 digits cannot tell values apart; the result is
     * then within one unit in the 40th digit plus ulp(lo).
     */
    public static DoubleDouble parse(String s) {
        BigDecimal d = new BigDecimal(s);
        double hi = requireFinite(d.doubleValue());
        BigDecimal half = BigDecimal.valueOf(5, 40 - (d.precision() - d.scale() - 1)); // half a 40th digit
        BigDecimal r = d.subtract(new BigDecimal(hi));
        return twoSum(hi, coarsest(r.subtract(half), r.add(half)).doubleValue());
    }

    /** The dyadic rational with the fewest significant bits in [lower, upper] (lower &lt; upper). */
    private static BigDecimal coarsest(BigDecimal lower, BigDecimal upper) {
        if (lower.signum() <= 0 && upper.signum() >= 0) {
            return BigDecimal.ZERO;
        }
        if (upper.signum() < 0) {
            return coarsest(upper.negate(), lower.negate()).negate();
        }
        // Scale by 2^k so that [a, b] holds an integer; keep b's bits above the top bit where a - 1 and b differ.
        BigDecimal width = upper.subtract(lower);
        int k = (int) Math.ceil((width.scale() - width.precision() + 1) * LOG2_10) + 1;
        BigInteger a = lower.multiply(pow2(k)).setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        BigInteger b = upper.multiply(pow2(k)).setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
        int p = a.subtract(BigInteger.ONE).xor(b).bitLength() - 1;
        return new BigDecimal(b.shiftRight(p).shiftLeft(p)).multiply(pow2(-k));
    }

    /** 2^k exactly. */
    private static BigDecimal pow2(int k) {
        return k >= 0 ? new BigDecimal(BigInteger.ONE.shiftLeft(k)) : new BigDecimal(FIVE.pow(-k), -k);
    }

    public double hi() {
        return hi;
    }

    public double lo() {
        return lo;
    }

    public DoubleDouble add(DoubleDouble o) {
        double[] r = new double[2];
        DoubleDoubleArithmetic.add(hi, lo, o.hi, o.lo, r, 0);
        return new DoubleDouble(r, 0);
    }

    public DoubleDouble subtract(DoubleDouble o) {
        double[] r = new double[2];
        DoubleDoubleArithmetic.add(hi, lo, -o.hi, -o.lo, r, 0);
        return new DoubleDouble(r, 0);
    }

    public DoubleDouble multiply(DoubleDouble o) {
        double[] r = new double[2];
        DoubleDoubleArithmetic.multiply(hi, lo, o.hi, o.lo, r, 0);
        return new DoubleDouble(r, 0);
    }

    /** @throws ArithmeticException if o is zero */
    public DoubleDouble divide(DoubleDouble o) {
        if (o.hi == 0) {
            throw new ArithmeticException("division by zero");
        }
        double[] r = new double[2];
        DoubleDoubleArithmetic.divide(hi, lo, o.hi, o.lo, r, 0);
        return new DoubleDouble(r, 0);
    }

    /**
     * √this, relative error &lt; 25/8 u² (see {@link DoubleDoubleArithmetic#sqrt}).
     *
     * @throws ArithmeticException unless this &gt; 0
     */
    public DoubleDouble sqrt() {
        if (hi <= 0) {
            throw new ArithmeticException("square root of " + this);
        }
        double[] r = new double[2];
        DoubleDoubleArithmetic.sqrt(hi, lo, r, 0);
        return new DoubleDouble(r, 0);
    }

    public DoubleDouble negate() {
        return new DoubleDouble(-hi, -lo);
    }

    public int signum() {
        return (int) Math.signum(hi);
    }

    /** Exactly hi + lo. */
    public BigDecimal toBigDecimal() {
        return new BigDecimal(hi).add(new BigDecimal(lo));
    }

    /**
     * The nearest long; ties round toward positive infinity (as {@link Math#round(double)}).
     *
     * @throws ArithmeticException if that is outside the long range
     */
    public long roundToLong() {
        if (!(Math.abs(hi) <= TWO_63)) {
            throw new ArithmeticException("out of long range: " + this);
        }
        double base = Math.floor(hi);
        long k; // the result is base + k
        if (base == hi) {
            double f = Math.floor(lo); // lo - f is exact
            k = (long) f + (lo - f >= 0.5 ? 1 : 0);
        } else {
            // |hi| < 2^52, and hi - base - 0.5 is exact and, unless 0, larger than |lo|
            double d = hi - base - 0.5;
            k = d > 0 || (d == 0 && lo >= 0) ? 1 : 0;
        }
        if (base == TWO_63) {
            if (k >= 0) {
                throw new ArithmeticException("out of long range: " + this);
            }
            return Long.MAX_VALUE + (k + 1);
        }
        return Math.addExact((long) base, k);
    }

    /** {@link #toBigDecimal()} rounded to {@link Rational#PRINT}, without trailing zeros, in plain notation. */
    public String toDecimalString() {
        return toBigDecimal().round(Rational.PRINT).stripTrailingZeros().toPlainString();
    }

    @Override
    public int compareTo(DoubleDouble o) {
        // hi = RN(value) is monotone in the value, so (hi, lo) compares lexicographically
        int c = Double.compare(hi, o.hi);
        return c != 0 ? c : Double.compare(lo, o.lo);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DoubleDouble d && hi == d.hi && lo == d.lo;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(hi) + Double.hashCode(lo);
    }

    @Override
    public String toString() {
        return toDecimalString();
    }

    /** TwoSum (Knuth): exact for any a, b. */
    private static DoubleDouble twoSum(double a, double b) {
        double s = a + b;
        double v = s - a;
        return new DoubleDouble(s, (a - (s - v)) + (b - v));
    }

    private static double requireFinite(double v) {
        if (!Double.isFinite(v)) {
            throw new ArithmeticException("not finite: " + v);
        }
        return v;
    }
}
