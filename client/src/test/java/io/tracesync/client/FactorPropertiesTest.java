package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/** {@link PublishedFactor#convert} against an independent computation in binary ({@link DyadicSum}). */
class FactorPropertiesTest {

    /** A normalized double-double near {@code around}: hi, and lo at most half an ulp of hi. */
    record Parts(double hi, double lo) {
    }

    @Property(tries = 3000)
    void conversionIsTheExactValueRoundedAsDocumented(@ForAll("slopes") Parts slope, @ForAll("offsets") Parts offset,
            @ForAll @LongRange(min = 0, max = (1L << 62) - 1) long t,
            @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long upPs,
            @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long downPs) {
        PublishedFactor f = PublishedFactor.of(Factors.record("n", 1, slope.hi, slope.lo, offset.hi, offset.lo, upPs,
                downPs));
        ReferenceTime c = f.convert(t);
        DyadicSum exact = DyadicSum.of(slope.hi, slope.lo, t, offset.hi, offset.lo);
        assertEquals(exact.nearest(), BigInteger.valueOf(c.referenceNs()));
        assertEquals(exact.floorPlusPs(-downPs), BigInteger.valueOf(c.lowerNs().getAsLong()));
        assertEquals(exact.ceilPlusPs(upPs), BigInteger.valueOf(c.upperNs().getAsLong()));
        assertTrue(c.lowerNs().getAsLong() <= c.referenceNs() && c.referenceNs() <= c.upperNs().getAsLong());
    }

    @Property(tries = 1000)
    void anyFiniteDoublesConvertExactlyWhileTheResultFitsALong(@ForAll("anyParts") Parts slope,
            @ForAll("anyParts") Parts offset, @ForAll long t) {
        SyncFactor r = Factors.record("n", 1, Math.abs(slope.hi) + Double.MIN_VALUE, slope.lo, offset.hi,
                offset.lo, 0L, 0L);
        DyadicSum exact = DyadicSum.of(r.getMap().getSlopeHi(), slope.lo, t, offset.hi, offset.lo);
        BigInteger nearest = exact.nearest();
        PublishedFactor f = PublishedFactor.of(r);
        boolean fits = nearest.bitLength() < 64 && exact.floorPlusPs(0).bitLength() < 64
                && exact.ceilPlusPs(0).bitLength() < 64;
        Statistics.label("fits a long").collect(fits);
        Statistics.label("fits a long").coverage(c -> {
            c.check(true).percentage(p -> p > 10);
            c.check(false).percentage(p -> p > 10);
        });
        if (fits) {
            assertEquals(nearest, BigInteger.valueOf(f.convert(t).referenceNs()));
        } else {
            assertThrows(ArithmeticException.class, () -> f.convert(t));
        }
    }

    @Provide
    Arbitrary<Parts> slopes() {
        // every double within ±2^-9 of 1, all 53 bits used
        return parts(Arbitraries.longs().between(-(1L << 43), 1L << 43).map(k -> 1 + k * 0x1p-52));
    }

    @Provide
    Arbitrary<Parts> offsets() {
        return parts(Arbitraries.oneOf(Arbitraries.doubles().between(-2e18, 2e18),
                Arbitraries.doubles().between(-1e6, 1e6).ofScale(9)));
    }

    @Provide
    Arbitrary<Parts> anyParts() {
        Arbitrary<Double> anyFinite = Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite);
        return parts(Arbitraries.oneOf(anyFinite, Arbitraries.doubles().between(-1e25, 1e25).ofScale(3)));
    }

    /** hi from {@code his}, lo = hi's ulp/2 times a fraction in [-1, 1], rounded: normalized as the topic holds. */
    private static Arbitrary<Parts> parts(Arbitrary<Double> his) {
        return Combinators.combine(his, Arbitraries.doubles().between(-1, 1))
                .as((hi, frac) -> new Parts(hi, Math.ulp(hi) / 2 * frac));
    }
}
