package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ten simulated minutes of one-sided traffic (one node's capture missing: its peers' sends never meet a receive and
 * their receives never a send) at 30 % loss, the wall clock advancing with simulated time: the matcher's store never
 * holds more than {@code matcher.max.pending} keys.
 */
class MatcherMemoryBoundTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");
    private static final long BOUND = 1_000;

    private final Settings settings = Settings.of(Map.of(
            "schema.registry.url", "mock://" + UUID.randomUUID(),
            "matcher.max.pending", String.valueOf(BOUND),
            "state.dir", TestStateDirs.fresh()));
    private final Topics topics = new Topics(settings);
    private final PipelineStats stats = new PipelineStats();
    private final TopologyTestDriver driver = new TopologyTestDriver(
            TracesyncTopology.build(settings, topics, stats), settings.streamsProperties(), START);

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void oneSidedLossyTrafficStaysUnderTheBound() {
        SimulationConfig c = SimulationConfig.builder().nodes(4).durationNs(Duration.ofMinutes(10).toNanos()).loss(0.3)
                .rateMin(3).rateMax(3).seed(5).build();
        SimulatedTraces cluster = SimulatedTraces.run(c);
        String silent = cluster.nodes.get(0);
        List<TraceEvent> events = cluster.events.stream().filter(e -> !e.getNode().equals(silent)).toList();

        Map<String, TestInputTopic<SegmentKey, TraceEvent>> inputs = new HashMap<>();
        long wallNs = 0;
        long maxPending = 0;
        long heapBefore = usedHeap();
        long maxHeap = 0;
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            inputs.computeIfAbsent("traces." + e.getNode(), t -> driver.createInputTopic(t,
                    topics.segmentKey.serializer(), topics.traceEvent.serializer(), START, Duration.ZERO))
                    .pipeInput(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e);
            long dueNs = c.durationNs() * (i + 1) / events.size();
            if (dueNs - wallNs >= 100_000_000L) {
                driver.advanceWallClockTime(Duration.ofNanos(dueNs - wallNs));
                wallNs = dueNs;
            }
            maxPending = Math.max(maxPending, stats.pendingSegments.get());
            if (i % 10_000 == 0) {
                maxHeap = Math.max(maxHeap, usedHeap());
            }
        }
        long held = count(driver.getWindowStore(TracesyncTopology.MATCHER_STORE));
        System.out.printf("10 simulated minutes, %d events (node %s silent, 30%% loss): at most %d of %d pending"
                + " segment keys, %d at the end, %d expired unmatched, %d pairs;"
                + " live heap %d MiB before, at most %d MiB%n",
                events.size(), silent, maxPending, BOUND, held, stats.expiredUnmatched.get(), stats.pairs.get(),
                heapBefore >> 20, maxHeap >> 20);
        assertEquals(held, stats.pendingSegments.get(), "the gauge counts the store");
        assertTrue(maxPending <= BOUND, "at most " + BOUND + ": " + maxPending);
        assertTrue(maxPending > BOUND * 9 / 10, "the traffic presses on the bound: " + maxPending);
        assertTrue(stats.expiredUnmatched.get() > 0);
    }

    private static long count(WindowStore<?, ?> store) {
        long n = 0;
        try (KeyValueIterator<?, ?> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /** Live heap after a collection (the matcher's store itself is RocksDB, off the heap). */
    private static long usedHeap() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
