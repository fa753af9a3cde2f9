package io.tracesync.core.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** NearestDouble agrees bit for bit with BigDecimal.doubleValue, on random decimals and on exact ties. */
class NearestDoubleTest {

    private static void same(BigDecimal v) {
        assertEquals(Double.doubleToRawLongBits(v.doubleValue()), Double.doubleToRawLongBits(NearestDouble.of(v)),
                () -> v + ": " + v.doubleValue() + " vs " + NearestDouble.of(v));
    }

    @Property(tries = 3000)
    void randomDecimals(@ForAll @LongRange(min = 1) long seed, @ForAll @IntRange(min = 1, max = 300) int bits,
            @ForAll @IntRange(min = -420, max = 420) int scale) {
        Random r = new Random(seed);
        BigInteger u = new BigInteger(bits, r);
        same(new BigDecimal(r.nextBoolean() ? u : u.negate(), scale));
    }

    @Property(tries = 3000)
    void sixtyDigitQuotients(@ForAll long a, @ForAll long b, @ForAll @IntRange(min = -40, max = 40) int exponent) {
        if (b == 0) {
            return;
        }
        same(new BigDecimal(a).divide(new BigDecimal(b), new MathContext(60)).scaleByPowerOfTen(exponent));
    }

    @Property(tries = 3000)
    void exactTiesAndTheirNeighbours(@ForAll double d) {
        if (!Double.isFinite(d) || Math.abs(d) < 0x1p-60 || Math.abs(d) > 0x1p60) {
            return;
        }
        BigDecimal halfUlp = new BigDecimal(Math.ulp(d)).divide(BigDecimal.valueOf(2));
        BigDecimal tie = new BigDecimal(d).add(halfUlp);
        // below the quotient's 66 bits: only the sticky bit tells these from the tie
        BigDecimal nudge = new BigDecimal(Math.ulp(d)).divide(BigDecimal.valueOf(1L << 41));
        BigDecimal beyondReach = new BigDecimal(BigInteger.ONE, 1200);
        same(tie);
        same(tie.add(nudge));
        same(tie.subtract(nudge));
        same(tie.add(beyondReach));
        same(new BigDecimal(d));
    }

    @Test
    void edges() {
        same(BigDecimal.ZERO);
        same(new BigDecimal(BigInteger.ZERO, 30));
        same(new BigDecimal(BigInteger.ZERO, -30));
        same(new BigDecimal(Double.MIN_NORMAL));
        same(new BigDecimal(Double.MIN_VALUE));
        same(new BigDecimal(Double.MAX_VALUE));
        BigDecimal halfTopUlp = new BigDecimal(Math.ulp(Double.MAX_VALUE)).divide(BigDecimal.valueOf(2));
        same(new BigDecimal(Double.MAX_VALUE).add(halfTopUlp));
        same(new BigDecimal("1e-320"));
        same(new BigDecimal("1e309"));
        same(new BigDecimal("-2.5e-308"));
        same(new BigDecimal(BigInteger.ONE.shiftLeft(53).add(BigInteger.ONE)));
    }
}
