package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The second guarantee through the topology: with {@code link.max.drift.ppm} every factor record carries the node's
 * conversion under the datasheet alone, to the same reference, and it holds the truth at its anchor and every second
 * of the 18 before it — from the one network task, and from the regions' tasks and the backbone's
 * ({@code network.regions}: n0–n2 in one region, the others in another, exchanging their datasheet factors beside
 * the model's); without it no record carries one.
 */
class DatasheetFactorsTest {

    private static final long SECOND = 1_000_000_000L;
    /** Emissions a second apart: the regions' and the backbone's exchanges. */
    private static final int EMISSIONS = 20;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyRecordCarriesADatasheetBoundThatHoldsTheTruth(boolean regions) {
        // clocks drifting up to 100 ppm with a ±2 ppm cycle on top: within R = 110 ppm of true
        SimulatedTraces traces = SimulatedTraces.run(SimulationConfig.builder().nodes(6).durationNs(20_000_000_000L)
                .seed(11).maxDriftPpm(100).wander(true).wanderAmplitudePpm(2).build());
        Map<String, SyncFactor> got = run(traces, regions ? Map.of("link.max.drift.ppm", "110",
                "network.regions", "^(?=n[0-2])(n)", "network.regions.partitions", "2")
                : Map.of("link.max.drift.ppm", "110"));
        assertEquals(traces.nodes.size(), got.size());
        for (SyncFactor r : got.values()) {
            PublishedFactor f = PublishedFactor.of(r);
            assertNotNull(f.datasheet(), r.getNode() + " carries no datasheet bound");
            long anchor = f.datasheet().anchorNs();
            for (long t = anchor; t > anchor - 18 * SECOND; t -= SECOND) {
                Conversion c = f.convertUnderDatasheet(t).orElseThrow();
                long truth = traces.clock(r.getReference().toString())
                        .localAt(traces.clock(r.getNode().toString()).trueAt(t));
                assertTrue(c.lowerNs() <= truth && truth <= c.upperNs(), r.getNode() + " at " + t + ": " + c
                        + " misses " + truth);
            }
        }
    }

    /**
     * In regions the datasheet bounds are near the whole network's, to the same reference: the regions' and the
     * backbone's exchanges carry them as they carry the model's. A region's nodes answer through the backbone's
     * last factors, which have aged since it evaluated (2R a second: 220 ns a ms at 110 ppm), so at most 1.3× as wide
     * (measured: equal in the reference's region, 1.14–1.19× in the other).
     */
    @Test
    void inRegionsTheDatasheetBoundsAreTheWholeNetworks() {
        SimulatedTraces traces = SimulatedTraces.run(SimulationConfig.builder().nodes(6).durationNs(20_000_000_000L)
                .seed(11).maxDriftPpm(100).wander(true).wanderAmplitudePpm(2).build());
        Map<String, SyncFactor> whole = run(traces, Map.of("link.max.drift.ppm", "110"));
        Map<String, SyncFactor> regions = run(traces, Map.of("link.max.drift.ppm", "110",
                "network.regions", "^(?=n[0-2])(n)", "network.regions.partitions", "2"));
        for (SyncFactor r : regions.values()) {
            SyncFactor w = whole.get(r.getNode());
            assertEquals(w.getReference(), r.getReference(), r.getNode());
            long inRegions = r.getDatasheet().getUpPs() + r.getDatasheet().getDownPs();
            long inWhole = w.getDatasheet().getUpPs() + w.getDatasheet().getDownPs();
            assertTrue(inRegions <= 1.3 * inWhole + 1_000, r.getNode() + ": " + inRegions + " ps in regions, "
                    + inWhole + " in the whole network");
        }
    }

    @Test
    void withoutALargestDriftNoRecordCarriesOne() {
        SimulatedTraces traces = SimulatedTraces.run(4, 10_000_000_000L, 3);
        run(traces, Map.of()).values().forEach(r -> assertNull(r.getDatasheet(), r::toString));
    }

    private static Map<String, SyncFactor> run(SimulatedTraces traces, Map<String, String> extra) {
        return DriverRun.factors(traces, extra, EMISSIONS);
    }
}
