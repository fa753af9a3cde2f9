package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.streams.Settings;
import io.tracesync.streams.SimulatedTraces;
import io.tracesync.streams.network.FactorRecords;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The client's exact conversion against the topology's own ({@link ClockMap#apply}, double-double, relative error
 * about 2^-100): equal to within that error, and rounded alike except where the exact value lies within it of a
 * tie.
 */
class ConversionCrossCheckTest {

    private static final BigDecimal TOLERANCE = BigDecimal.ONE.divide(BigDecimal.valueOf(2).pow(98));
    private static final BigDecimal HALF = new BigDecimal("0.5");

    @Test
    void randomMapsAgreeWithTheDoubleDoubleConversion() {
        Random random = new Random(20261124);
        int near = 0;
        for (int i = 0; i < 200_000; i++) {
            DoubleDouble slope = DoubleDouble.of(1 + (random.nextDouble() - 0.5) * 2e-3,
                    random.nextGaussian() * 0x1p-54);
            DoubleDouble offset = DoubleDouble.of((random.nextDouble() - 0.5) * 4e18, random.nextGaussian() * 64);
            ClockMap core = ClockMap.of(slope, offset);
            long t = random.nextLong() & ((1L << 62) - 1);
            Factor client = Factor.of(record(core, 0L, 0L));
            BigDecimal exact = client.map().apply(t);
            BigDecimal error = TOLERANCE.multiply(exact.abs()
                    .add(client.map().slope().multiply(BigDecimal.valueOf(t))));
            assertTrue(core.apply(t).toBigDecimal().subtract(exact).abs().compareTo(error) <= 0,
                    () -> core + " at " + t + ": " + core.apply(t).toBigDecimal() + " vs exact " + exact);
            long mine = client.convert(t).referenceNs();
            long theirs = core.applyRounded(t);
            if (mine != theirs) {
                BigDecimal tie = exact.subtract(HALF).setScale(0, RoundingMode.HALF_EVEN).add(HALF);
                assertTrue(exact.subtract(tie).abs().compareTo(error) <= 0,
                        () -> core + " at " + t + ": " + mine + " vs " + theirs + ", exact " + exact);
                near++;
            }
        }
        System.out.printf("200000 random maps: %d rounded otherwise by the double-double conversion (at a tie)%n",
                near);
    }

    @Test
    void aSimulatedClustersFactorsConvertItsEventsAsTheTopologyDoes() {
        SimulatedTraces cluster = SimulatedTraces.run(8, 30_000_000_000L, 3);
        Settings defaults = Settings.of(Map.of());
        Map<String, NodeFactor> factors = OfflineSync.factors(cluster.pairs, defaults.linkOptions(),
                defaults.networkOptions());
        int checked = 0;
        for (TraceEvent e : cluster.events) {
            NodeFactor f = factors.get(e.getNode());
            Conversion c = Factor.of(FactorRecords.of(new AnchoredFactor(f.node(), f.reference(), f.factor(), 0,
                    LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED, NetworkMethod.ALL_LINKS), 0, 1))
                    .convert(e.getTsNs());
            ClockMap core = f.factor().toReference();
            assertEquals(core.applyRounded(e.getTsNs()), c.referenceNs(), e::toString);
            // the bounds grown to the event's time, as the topology's /convert grows them
            io.tracesync.core.network.Conversion theirs = io.tracesync.core.network.Conversion.of(f.factor(),
                    e.getTsNs());
            assertEquals(theirs.lowerNs() == null ? Long.MIN_VALUE : theirs.lowerNs(),
                    c.lowerNs().orElse(Long.MIN_VALUE), e::toString);
            assertEquals(theirs.upperNs() == null ? Long.MAX_VALUE : theirs.upperNs(),
                    c.upperNs().orElse(Long.MAX_VALUE), e::toString);
            checked++;
        }
        assertTrue(factors.values().stream().anyMatch(f -> f.factor().bounded()
                && !f.node().equals(f.reference())), "no bounded factor besides the references");
        System.out.printf("%d events of %d nodes converted alike%n", checked, factors.size());
    }

    private static SyncFactor record(ClockMap map, Long upPs, Long downPs) {
        return SyncFactor.newBuilder().setNode("n").setComponent("r").setReference("r")
                .setMap(new io.tracesync.avro.ClockMap(map.slope().hi(), map.slope().lo(), map.offset().hi(),
                        map.offset().lo()))
                .setUpPs(upPs).setDownPs(downPs).setBoundNs(null).setValidFromMs(0).setVersion(1).build();
    }
}
