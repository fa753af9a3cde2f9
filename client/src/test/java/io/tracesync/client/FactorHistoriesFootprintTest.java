package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.tracesync.avro.ClockMap;
import io.tracesync.avro.DatasheetBound;
import io.tracesync.avro.SyncFactor;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The heap a version held costs, measured: realistic factors (every part of the map a distinct double, bounds, rates
 * and the clock model) added to the histories of {@value #NODES} nodes, and the heap used after full collections
 * compared between {@value #VERSIONS} versions a node and twice as many — each node's ring then exactly full both
 * times, and far from a humongous object of G1 — so that what the first ones brought once (classes, names) does not
 * count. {@link FactorHistories#BYTES_PER_VERSION} must not be less, nor, with datasheet bounds, it and
 * {@link FactorHistories#BYTES_PER_DATASHEET}.
 */
class FactorHistoriesFootprintTest {

    private static final int NODES = 64;
    /** 16·2^8: a ring, 16 slots at first and doubled when full, holds exactly this many, then twice as many. */
    private static final int VERSIONS = 4_096;

    @Test
    void aVersionCostsNoMoreThanStated() {
        double bytes = bytesPerVersion(false, 2L * VERSIONS * NODES);
        System.out.printf("a version held costs %.1f bytes (stated: %d)%n", bytes, FactorHistories.BYTES_PER_VERSION);
        assertTrue(bytes <= FactorHistories.BYTES_PER_VERSION, bytes + " bytes per version");
    }

    @Test
    void aDatasheetBoundCostsNoMoreThanStated() {
        long stated = FactorHistories.BYTES_PER_VERSION + FactorHistories.BYTES_PER_DATASHEET;
        // the budget a history is given, in versions without datasheet bounds, to hold as many with them
        long budget = (2L * VERSIONS * NODES * stated + FactorHistories.BYTES_PER_VERSION - 1)
                / FactorHistories.BYTES_PER_VERSION;
        double bytes = bytesPerVersion(true, budget);
        System.out.printf("a version held with a datasheet bound costs %.1f bytes (stated: %d)%n", bytes, stated);
        assertTrue(bytes <= stated, bytes + " bytes per version");
    }

    /** The heap per version held, measured as the class says, the versions carrying datasheet bounds or not. */
    private static double bytesPerVersion(boolean datasheet, long budget) {
        assumeTrue(Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("UseCompressedOops").getValue()), "the cost is stated for compressed references");
        SplittableRandom r = new SplittableRandom(1);
        FactorHistories histories = new FactorHistories(budget, 0, System::currentTimeMillis);
        add(histories, 1, VERSIONS, r, datasheet);
        long before = usedAfterGc();
        add(histories, VERSIONS + 1, 2 * VERSIONS, r, datasheet);
        double bytes = (usedAfterGc() - before) / ((double) VERSIONS * NODES);
        assertEquals(2 * VERSIONS, histories.versions("node-7").size());
        return bytes;
    }

    /** Versions {@code from} to {@code to} of every node, as records decode them: names are strings of their own. */
    private static void add(FactorHistories histories, int from, int to, SplittableRandom r, boolean datasheet) {
        for (long v = from; v <= to; v++) {
            for (int n = 0; n < NODES; n++) {
                String node = "node-" + n;
                SyncFactor f = SyncFactor.newBuilder(Factors.record(node, v, 1 + r.nextDouble() * 1e-4,
                        r.nextDouble() * 1e-20, r.nextDouble() * 1e12, r.nextDouble() * 1e-5, r.nextLong(1L << 30),
                        r.nextLong(1L << 30))).setComponent(new String("node-0")).setReference(new String("node-0"))
                        .setAnchorNs(1_700_000_000_000_000_000L + v * 1_000_000_000L)
                        .setGrowthAbove(r.nextDouble() * 1e-6).setGrowthBelow(r.nextDouble() * 1e-6).setCurvature(2e-17)
                        .setDatasheet(datasheet ? new DatasheetBound(new ClockMap(1 + r.nextDouble() * 1e-4,
                                r.nextDouble() * 1e-20, r.nextDouble() * 1e12, r.nextDouble() * 1e-5),
                                r.nextLong(1L << 30), r.nextLong(1L << 30),
                                1_700_000_000_000_000_000L + v * 1_000_000_000L,
                                r.nextDouble() * 1e-3, r.nextDouble() * 1e-3) : null)
                        .build();
                histories.add(FactorRecord.read(node, f, "test").orElseThrow());
            }
        }
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
