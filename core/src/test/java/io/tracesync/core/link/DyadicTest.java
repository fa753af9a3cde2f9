package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

/**
 * {@link Dyadic}'s bounds equal, value and scale, the decimal and rational computation they replaced: the double-
 * double's value at t expanded in decimal, made a reduced rational, subtracted, divided to the picosecond upward.
 */
class DyadicTest {

    @Property(tries = 2000)
    void picosecondBoundsEqualTheRationalComputation(@ForAll @DoubleRange(min = -4, max = 4) double slope,
            @ForAll @DoubleRange(min = -0.5, max = 0.5) double slopeLow,
            @ForAll @DoubleRange(min = -1e18, max = 1e18) double offset, @ForAll double offsetLow,
            @ForAll @LongRange(min = 0, max = 1L << 62) long t, @ForAll long num, @ForAll @LongRange(min = 1) long den) {
        DoubleDouble s = DoubleDouble.of(new BigDecimal(slope).add(new BigDecimal(slopeLow * Math.ulp(slope))));
        DoubleDouble o = DoubleDouble.of(new BigDecimal(offset).add(new BigDecimal(
                Double.isFinite(offsetLow) ? Math.IEEEremainder(offsetLow, Math.ulp(offset)) : 0)));
        Rational r = Rational.of(num, den);
        Rational at = rational(s.toBigDecimal().multiply(BigDecimal.valueOf(t)).add(o.toBigDecimal()));
        Dyadic d = Dyadic.of(s).times(t).plus(Dyadic.of(o));
        assertEquals(ceilPicos(r.subtract(at)), d.ceilPicosBelow(r));
        assertEquals(ceilPicos(at.subtract(r)), d.ceilPicosAbove(r));
    }

    private static Rational rational(BigDecimal d) {
        return d.scale() >= 0 ? Rational.of(d.unscaledValue(), BigInteger.TEN.pow(d.scale()))
                : Rational.of(d.unscaledValue().multiply(BigInteger.TEN.pow(-d.scale())), BigInteger.ONE);
    }

    private static BigDecimal ceilPicos(Rational r) {
        return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), 3, RoundingMode.CEILING);
    }
}
