package io.tracesync.client;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;

/** SyncFactor records for the tests. */
final class Factors {

    private Factors() {
    }

    static SyncFactor record(String node, long version, double slopeHi, double slopeLo, double offsetHi,
            double offsetLo, Long upPs, Long downPs) {
        return SyncFactor.newBuilder()
                .setNode(node)
                .setComponent("ref")
                .setReference("ref")
                .setMap(new ClockMap(slopeHi, slopeLo, offsetHi, offsetLo))
                .setUpPs(upPs)
                .setDownPs(downPs)
                .setBoundNs(upPs == null || downPs == null ? null : Math.max(upPs, downPs) / 1000.0)
                .setValidFromMs(1_700_000_000_000L + version)
                .setVersion(version)
                .build();
    }

    /**
     * Slope 1 + offsetNs, bounded ±{@code boundPs} at {@code anchorNs} and growing 1 ppm away from it on each side,
     * published at {@code validFromMs}.
     */
    static SyncFactor anchored(String node, long version, long anchorNs, double offsetNs, long boundPs,
            long validFromMs) {
        return SyncFactor.newBuilder(record(node, version, 1, 0, offsetNs, 0, boundPs, boundPs))
                .setAnchorNs(anchorNs).setGrowthAbove(1e-6).setGrowthBelow(1e-6).setValidFromMs(validFromMs).build();
    }

    /** Slope 1 + offsetNs, bounded ±1 µs. */
    static SyncFactor shift(String node, long version, double offsetNs) {
        return record(node, version, 1, 0, offsetNs, 0, 1_000_000L, 1_000_000L);
    }
}
