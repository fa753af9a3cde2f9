package io.tracesync.streams.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracesync.avro.ClockMap;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.Quality;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class AvroJsonTest {

    @Test
    void aFactorKeepsItsFieldNamesAndItsMapIsExact() {
        SyncFactor f = SyncFactor.newBuilder().setNode("b").setComponent("a").setReference("a")
                .setMap(new ClockMap(1.0000420025, 0x1p-60, -3.6e12, 1.5e-4)).setUpPs(1500L).setDownPs(null)
                .setBoundNs(null).setValidFromMs(17L).setVersion(3L).build();
        JsonNode j = AvroJson.of(f);
        assertEquals("b", j.get("node").asText());
        assertEquals(1500, j.get("up_ps").asLong());
        assertTrue(j.get("down_ps").isNull());
        assertEquals(3, j.get("version").asLong());
        assertTrue(j.get("version").isTextual(), "64-bit integers as strings");
        BigDecimal slope = new BigDecimal(j.get("map").get("slope").asText());
        BigDecimal exact = DoubleDouble.of(1.0000420025, 0x1p-60).toBigDecimal();
        assertTrue(slope.subtract(exact).abs().compareTo(exact.ulp().max(new BigDecimal("1e-39"))) <= 0,
                "the low part is printed: " + slope);
        assertEquals(new BigDecimal("-3599999999999.99985"), new BigDecimal(j.get("map").get("offset").asText())
                .setScale(5, java.math.RoundingMode.HALF_EVEN));
    }

    @Test
    void aTimestampPast2To53IsTheStringOfItsDigits() {
        long anchor = (1L << 62) - 1; // no double holds it: a reader of numbers as doubles would get 2^62
        SyncFactor f = SyncFactor.newBuilder().setNode("b").setComponent("a").setReference("a")
                .setMap(new ClockMap(1.0, 0.0, 0.0, 0.0)).setUpPs(1L).setDownPs(1L).setBoundNs(0.001).setValidFromMs(17L)
                .setVersion(3L).setAnchorNs(anchor).build();
        assertTrue(AvroJson.of(f).toString().contains("\"anchor_ns\":\"4611686018427387903\""), AvroJson.of(f)
                .toString());
    }

    @Test
    void enumsAreNamesAndNonFiniteNumbersNull() {
        LinkSummary s = LinkSummary.newBuilder().setA("a").setB("b").setQuality(Quality.FAIL).setSlopeAccuracy(null)
                .setMinSlope(Double.NaN).setLatestNs(5L).setPairs(2L).setHullPoints(3).setStalePairs(0L)
                .setFailures(1L).setEpoch(0L).build();
        JsonNode j = AvroJson.of(s);
        assertEquals("FAIL", j.get("quality").asText());
        assertTrue(j.get("min_slope").isNull());
        assertEquals(2, j.get("pairs").asInt());
    }
}
