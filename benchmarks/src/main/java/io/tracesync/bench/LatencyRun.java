package io.tracesync.bench;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.config.TracesyncConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Latency from a receive event appended to its effect visible in {@code sync.factors} (read_committed), under a
 * paced background load. Every probe is a new pair of nodes that exchange two messages each way: once the last
 * receive is acknowledged by the broker, its link is ACCURATE and the second node's first factor must appear.
 */
final class LatencyRun {

    /** {@code hopsNs[h]}: per probe seen at the factor, the time from its acknowledgement to hop h ({@link ProbeHops}). */
    record Result(double offeredPerSecond, double achievedPerSecond, long[][] hopsNs, long lostProbes) {
        long[] latenciesNs() {
            return hopsNs[hopsNs.length - 1];
        }

        long percentileNs(double p) {
            return percentileNs(latenciesNs(), p);
        }

        static long percentileNs(long[] latencies, double p) {
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
        }
    }

    private static final int PROBE_FLAGS = 0x10; // ACK: never one of the simulated PSH+ACK segments
    private static final long PROBE_OFFSET_NS = 1_000_000; // the second node's clock is 1 ms ahead
    private static final long PROBE_DELAY_NS = 50_000;

    private LatencyRun() {
    }

    /** Probes for {@code length}, after {@code warmUp} of background load alone. */
    static Result run(Settings settings, SimulationConfig background, double eventsPerSecond, Duration warmUp,
            Duration length, Duration probeEvery) throws InterruptedException {
        Map<String, Long> acked = new ConcurrentHashMap<>();
        ProbeHops hops = new ProbeHops(settings);
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(List.of("probe"));
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                if (!app.awaitRunning(Duration.ofMinutes(2))) {
                    throw new IllegalStateException("the application did not reach RUNNING");
                }
                Thread watcher = new Thread(hops, "probe-watcher");
                watcher.start();
                long began = System.nanoTime();
                long end = began + warmUp.toNanos() + length.toNanos();
                long[] nextProbe = {began + warmUp.toNanos()};
                int[] probes = {0};
                long[] sent = SimulatedStream.run(background, Long.MAX_VALUE, e -> {
                    long now = System.nanoTime();
                    if (now > end) {
                        throw new SimulatedStream.Stop();
                    }
                    if (now >= nextProbe[0]) {
                        probe(writer, probes[0]++, acked);
                        nextProbe[0] += probeEvery.toNanos();
                    }
                    writer.write(e);
                    pace(began, writer.written(), eventsPerSecond);
                });
                writer.flush();
                double achieved = sent[0] / ((System.nanoTime() - began) / 1e9);
                Thread.sleep(settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG).toMillis() * 3 + 5_000);
                hops.stop();
                watcher.join();
                List<long[]> latencies = new ArrayList<>();
                acked.forEach((node, t) -> {
                    long[] seen = hops.times(node.substring(0, node.length() - 2));
                    if (seen[seen.length - 1] != 0) {
                        latencies.add(Arrays.stream(seen).map(s -> s == 0 ? -1 : Math.max(0, s - t)).toArray());
                    }
                });
                long[][] byHop = new long[ProbeHops.HOPS.size()][];
                for (int h = 0; h < byHop.length; h++) {
                    int hop = h;
                    byHop[h] = latencies.stream().mapToLong(l -> l[hop]).filter(l -> l >= 0).toArray();
                }
                return new Result(eventsPerSecond, achieved, byHop, acked.size() - latencies.size());
            }
        }
    }

    private static void pace(long began, long written, double eventsPerSecond) {
        long due = began + (long) (written / eventsPerSecond * 1e9);
        long wait = due - System.nanoTime();
        if (wait > 1_000_000) {
            try {
                Thread.sleep(wait / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Two messages each way between two new nodes; the time the last receive is acknowledged is recorded. */
    private static void probe(TraceTopicWriter writer, int i, Map<String, Long> acked) {
        String a = "probe-" + i + "-a";
        String b = "probe-" + i + "-b";
        long t = System.currentTimeMillis() * 1_000_000L;
        long seq = (long) i * 4 % (1L << 32);
        for (int k = 0; k < 4; k++) {
            boolean fromA = k % 2 == 0;
            long sendTrue = t + k * 1_000_000L;
            long recvTrue = sendTrue + PROBE_DELAY_NS;
            String from = fromA ? a : b;
            String to = fromA ? b : a;
            long sendLocal = fromA ? sendTrue : sendTrue + PROBE_OFFSET_NS;
            long recvLocal = fromA ? recvTrue + PROBE_OFFSET_NS : recvTrue;
            writer.write(event(from, sendLocal, Direction.SEND, seq + k));
            TraceEvent receive = event(to, recvLocal, Direction.RECV, seq + k);
            if (k == 3) {
                writer.write(receive, ns -> acked.put(b, ns));
            } else {
                writer.write(receive);
            }
        }
    }

    private static TraceEvent event(String node, long ts, Direction d, long seq) {
        return TraceEvent.newBuilder().setNode(node).setTsNs(ts).setDirection(d)
                .setSaddr(null).setDaddr(null).setSport(null).setDport(null)
                .setSeq(seq).setAckSeq(0xFFFF_FFF0L).setFlags(PROBE_FLAGS).setLength(null).build();
    }
}
