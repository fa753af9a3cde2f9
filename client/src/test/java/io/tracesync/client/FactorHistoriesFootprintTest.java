package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.tracesync.avro.SyncFactor;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The heap a version held costs, measured: {@value #VERSIONS} versions of realistic factors (every part of the map
 * a distinct double, bounds, rates and the clock model) added to one node's history, filling its capacity, the
 * heap used after full collections compared before and after. {@link FactorHistories#BYTES_PER_VERSION} must not be
 * less.
 */
class FactorHistoriesFootprintTest {

    private static final int VERSIONS = 500_000;

    @Test
    void aVersionCostsNoMoreThanStated() {
        assumeTrue(Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("UseCompressedOops").getValue()), "the cost is stated for compressed references");
        SplittableRandom r = new SplittableRandom(1);
        FactorHistories histories = new FactorHistories(VERSIONS, 0, System::currentTimeMillis);
        histories.add(version(1, r));
        long before = usedAfterGc();
        for (int v = 2; v <= VERSIONS; v++) {
            histories.add(version(v, r));
        }
        double bytes = (usedAfterGc() - before) / (VERSIONS - 1.0);
        System.out.printf("a version held costs %.1f bytes (stated: %d)%n", bytes, FactorHistories.BYTES_PER_VERSION);
        assertEquals(VERSIONS, histories.versions("node-7").size());
        assertTrue(bytes <= FactorHistories.BYTES_PER_VERSION, bytes + " bytes per version");
    }

    /** Version v as a record decodes it: its names are strings of their own. */
    private static FactorRecord version(long v, SplittableRandom r) {
        SyncFactor f = SyncFactor.newBuilder(Factors.record(new String("node-7"), v, 1 + r.nextDouble() * 1e-4,
                r.nextDouble() * 1e-20, r.nextDouble() * 1e12, r.nextDouble() * 1e-5, r.nextLong(1L << 30),
                r.nextLong(1L << 30))).setComponent(new String("node-0")).setReference(new String("node-0"))
                .setAnchorNs(1_700_000_000_000_000_000L + v * 1_000_000_000L).setGrowthAbove(r.nextDouble() * 1e-6)
                .setGrowthBelow(r.nextDouble() * 1e-6).setCurvature(2e-17).build();
        return FactorRecord.read("node-7", f, "test").orElseThrow();
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
