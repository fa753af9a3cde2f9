package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.network.FactorRecords;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A factor the topology writes ({@link FactorRecords#of}) and the client reads ({@link PublishedFactor#of}) is the
 * core's factor again: the client converts every event of a simulated cluster exactly as the core does.
 */
class PublishedFactorRoundTripTest {

    @Test
    void aSimulatedClustersFactorsConvertItsEventsAsTheTopologyDoes() {
        SimulatedTraces cluster = SimulatedTraces.run(8, 30_000_000_000L, 3);
        Settings defaults = Settings.of(Map.of());
        Map<String, NodeFactor> factors = OfflineSync.factors(cluster.pairs, defaults.linkOptions(),
                defaults.networkOptions());
        int checked = 0;
        for (TraceEvent e : cluster.events) {
            NodeFactor f = factors.get(e.getNode());
            AnchoredFactor written = new AnchoredFactor(f.node(), f.reference(), f.factor(), 0,
                    LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED, NetworkMethod.ALL_LINKS);
            PublishedFactor read = PublishedFactor.of(FactorRecords.of(written, 0, 1));
            assertEquals(f.factor(), read.factor(), e::toString);
            ReferenceTime c = read.convert(e.getTsNs());
            ClockMap core = f.factor().toReference();
            assertEquals(core.applyRounded(e.getTsNs()), c.referenceNs(), e::toString);
            // the bounds grown to the event's time, as the topology's /convert grows them
            Conversion theirs = Conversion.of(f.factor(), e.getTsNs());
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
}
