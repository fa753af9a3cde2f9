package io.tracesync.core.numeric;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The double nearest a decimal (ties to even), exactly what {@link BigDecimal#doubleValue()} returns, computed in
 * binary: JDK 17's doubleValue prints the decimal and parses the string, which was a tenth of the link step.
 * u·10^-s is divided with a quotient of at least 66 bits and the remainder folded into a sticky bit, so that
 * {@link BigInteger#doubleValue()} (correctly rounded) rounds it as it would round the exact value: the halfway
 * points between doubles are even multiples of the quotient's unit, never strictly between 2q and 2q + 2.
 */
final class NearestDouble {

    /** Beyond 10^±MAX_POWER the value is out of the normal range or needs more digits than we ever form. */
    private static final int MAX_POWER = 400;
    private static final BigInteger[] POWERS_OF_TEN = new BigInteger[MAX_POWER + 1];

    static {
        POWERS_OF_TEN[0] = BigInteger.ONE;
        for (int i = 1; i <= MAX_POWER; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1].multiply(BigInteger.TEN);
        }
    }

    private NearestDouble() {
    }

    static double of(BigDecimal v) {
        BigInteger u = v.unscaledValue();
        int scale = v.scale();
        if (u.signum() == 0) {
            return 0.0;
        }
        if (scale < -MAX_POWER || scale > MAX_POWER) {
            return v.doubleValue();
        }
        if (scale <= 0) {
            return u.multiply(POWERS_OF_TEN[-scale]).doubleValue();
        }
        BigInteger num = u.abs();
        BigInteger den = POWERS_OF_TEN[scale];
        int shift = 66 + den.bitLength() - num.bitLength();
        BigInteger[] qr = shift >= 0 ? num.shiftLeft(shift).divideAndRemainder(den)
                : num.divideAndRemainder(den.shiftLeft(-shift));
        BigInteger sticky = qr[0].shiftLeft(1);
        if (qr[1].signum() != 0) {
            sticky = sticky.setBit(0);
        }
        double magnitude = Math.scalb(sticky.doubleValue(), -(shift + 1));
        if (magnitude < Double.MIN_NORMAL || Double.isInfinite(magnitude)) {
            return v.doubleValue(); // scalb would round a second time
        }
        return u.signum() < 0 ? -magnitude : magnitude;
    }
}
