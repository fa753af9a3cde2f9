package io.tracesync.core.numeric;

/**
 * The arithmetic of {@link DoubleDouble} on raw (hi, lo) pairs, each result stored normalized (zeros +0.0) at
 * out[at] (hi) and out[at + 1] (lo): the single implementation behind the immutable objects and behind flat
 * arrays of double-doubles, which it lets compute without allocating. Algorithms and error bounds are those
 * documented on {@link DoubleDouble}.
 */
public final class DoubleDoubleArithmetic {

    private DoubleDoubleArithmetic() {
    }

    /** a + b by AccurateDWPlusDW. */
    public static void add(double ah, double al, double bh, double bl, double[] out, int at) {
        double sh = ah + bh;
        double sv = sh - ah;
        double sl = (ah - (sh - sv)) + (bh - sv);
        double th = al + bl;
        double tv = th - al;
        double tl = (al - (th - tv)) + (bl - tv);
        double c = sl + th;
        double vh = sh + c;
        double vl = c - (vh - sh);
        fastTwoSum(vh, tl + vl, out, at);
    }

    /** Exactly v: its two 32-bit halves are exact doubles and TwoSum adds them without error. */
    public static void of(long v, double[] out, int at) {
        double a = v & 0xFFFF_FFFF_0000_0000L;
        double b = v & 0xFFFF_FFFFL;
        double s = a + b;
        double bv = s - a;
        out[at] = s;
        out[at + 1] = (a - (s - bv)) + (b - bv);
    }

    /**
     * slope·x + offset − y for a map held as (slope hi, lo, offset hi, lo), without allocating; {@code out[at..at+1]}
     * is scratch. Rounded to a double at the end: the double-double value is within ~2^-100 of |slope·x|.
     */
    public static double applyMinus(double sh, double sl, double oh, double ol, long x, long y, double[] out,
            int at) {
        of(x, out, at);
        multiply(sh, sl, out[at], out[at + 1], out, at);
        add(out[at], out[at + 1], oh, ol, out, at);
        double ph = out[at];
        double pl = out[at + 1];
        of(y, out, at);
        add(ph, pl, -out[at], -out[at + 1], out, at);
        return out[at] + out[at + 1];
    }

    /** a · b by DWTimesDW3. */
    public static void multiply(double ah, double al, double bh, double bl, double[] out, int at) {
        double ch = ah * bh;
        double cl1 = Math.fma(ah, bh, -ch);
        double tl1 = Math.fma(ah, bl, al * bl);
        double cl2 = Math.fma(al, bh, tl1);
        fastTwoSum(ch, cl1 + cl2, out, at);
    }

    /** a / b by DWDivDW2; b must not be zero. */
    public static void divide(double ah, double al, double bh, double bl, double[] out, int at) {
        double th = ah / bh;
        // (rh, rl) = b·th by DWTimesFP1
        double ch = bh * th;
        double cl1 = Math.fma(bh, th, -ch);
        double cl2 = bl * th;
        double sh = ch + cl2;
        double sl1 = cl2 - (sh - ch);
        double sl2 = sl1 + cl1;
        double rh = sh + sl2;
        double rl = sl2 - (rh - sh);
        double delta = (ah - rh) + (al - rl); // ah - rh is exact
        fastTwoSum(th, delta / bh, out, at);
    }

    /**
     * √a for a &gt; 0: h = RN(√ah) (IEEE square root, correctly rounded) and one Newton step in which ah − h² is
     * exact by FMA (the residual of a correctly rounded square root is a double). Relative error &lt; 25/8 u²
     * (Lefèvre, Louvet, Muller, Picot, Rideau, ACM TOMS 2023, SQRTDWtoDW); it comes close to that just above 1
     * with al just below ulp(ah)/2, where 3u² is exceeded.
     */
    public static void sqrt(double ah, double al, double[] out, int at) {
        double h = Math.sqrt(ah);
        double r = Math.fma(-h, h, ah) + al;
        fastTwoSum(h, r / (2 * h), out, at);
    }

    /** Fast2Sum (Dekker): exact when exponent(a) &gt;= exponent(b). */
    private static void fastTwoSum(double a, double b, double[] out, int at) {
        double s = a + b;
        out[at] = s + 0.0;
        out[at + 1] = (b - (s - a)) + 0.0;
    }
}
