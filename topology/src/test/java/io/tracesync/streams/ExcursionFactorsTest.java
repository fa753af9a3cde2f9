package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.client.ReferenceTime;
import io.tracesync.sim.ClockDiscipline;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Offset excursions through the topology: clocks under a chrony-like daemon updating every 16 s that slews a 1 ms
 * start offset out (then a LAN server's tens of µs), with a ±2 ppm cycle, {@code link.excursion} set to cover them;
 * every factor record holds the truth at its anchor and every second of the 18 before it — from the one network
 * task, and from the regions' tasks and the backbone's ({@code network.regions}), whose factors are composed of the
 * regions' and the backbone's, each widened by the excursion. (Whether the excursion is needed is the link's and the
 * network's exact tests' to show: {@code BendingLinkTest}, {@code ExcursionIntervalsTest}.)
 */
class ExcursionFactorsTest {

    private static final long SECOND = 1_000_000_000L;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyRecordHoldsTheTruthUnderADaemonsExcursions(boolean regions) {
        SimulatedTraces traces = SimulatedTraces.run(SimulationConfig.builder().nodes(6).durationNs(40 * SECOND)
                .seed(11).wander(true).wanderAmplitudePpm(2)
                .discipline(ClockDiscipline.chrony(16 * SECOND, ClockDiscipline.LAN_NOISE_NS, 1_000_000, 0)).build());
        Map<String, SyncFactor> got = DriverRun.factors(traces, regions ? Map.of("link.excursion", "2ms",
                "network.regions", "^(?=n[0-2])(n)", "network.regions.partitions", "2")
                : Map.of("link.excursion", "2ms"), 40);
        assertEquals(traces.nodes.size(), got.size());
        for (SyncFactor r : got.values()) {
            PublishedFactor f = PublishedFactor.of(r);
            long anchor = f.factor().anchorNs();
            for (long t = anchor; t > anchor - 18 * SECOND; t -= SECOND) {
                ReferenceTime c = f.convert(t);
                long truth = traces.clock(r.getReference().toString())
                        .localAt(traces.clock(r.getNode().toString()).trueAt(t));
                assertTrue(c.lowerNs().orElseThrow() <= truth && truth <= c.upperNs().orElseThrow(),
                        r.getNode() + " at " + t + ": " + c + " misses " + truth);
            }
        }
    }
}
