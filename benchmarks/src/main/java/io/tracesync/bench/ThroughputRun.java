package io.tracesync.bench;

import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TracesyncApp;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The application's end-to-end throughput on events already in its input topic: from the first event it reads to
 * the moment every event has been checked, every true pair matched and every link summary applied to the network
 * (with exactly_once_v2, that includes every commit on the way).
 */
final class ThroughputRun {

    record Result(long events, double seconds, double startupSeconds, String threadTime, double streamCpuNs,
            double processCpuNs, long liveHeapBytes, long accurateLinks) {
        double eventsPerSecond() {
            return events / seconds;
        }
    }

    private ThroughputRun() {
    }

    static Result run(Settings settings, long events, long pairs, Duration timeout) throws InterruptedException {
        long began = System.nanoTime();
        long deadline = began + timeout.toNanos();
        try (TracesyncApp app = TracesyncApp.start(settings)) {
            PipelineStats s = app.stats();
            long first = 0;
            long[] cpuAtFirst = null;
            while (true) {
                long now = System.nanoTime();
                if (first == 0 && s.events.get() > 0) {
                    first = now;
                    cpuAtFirst = cpu();
                }
                if (s.events.get() >= events && s.linkPairs.get() >= pairs
                        && s.networkUpdates.get() == s.linkSummaries.get()) {
                    long[] cpu = cpu();
                    return new Result(events, (now - first) / 1e9, (first - began) / 1e9, threadTime(app),
                            (cpu[0] - cpuAtFirst[0]) / (double) events, (cpu[1] - cpuAtFirst[1]) / (double) events,
                            HeapAfterCollections.liveBytes(), s.accurateLinks.get());
                }
                if (now > deadline) {
                    throw new IllegalStateException(String.format("not done after %s: %d of %d events, %d of %d "
                            + "pairs, %d of %d link summaries applied", timeout, s.events.get(), events,
                            s.linkPairs.get(), pairs, s.networkUpdates.get(), s.linkSummaries.get()));
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * CPU time so far of the stream threads together, and of the whole process (compilers and collector included):
     * on a shared machine a steadier figure than the wall clock.
     */
    private static long[] cpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long stream = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("-StreamThread-")) {
                stream += Math.max(0, threads.getThreadCpuTime(t.getId()));
            }
        }
        return new long[] {stream, ((com.sun.management.OperatingSystemMXBean) ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime()};
    }

    /**
     * Where the stream threads' time went, from Kafka Streams' own thread metrics (over their sample window, 2 × 30
     * s by default): per thread the shares of polling, processing, punctuating and committing, their mean commit
     * latency and records per poll; the commits per second of all threads.
     */
    private static String threadTime(TracesyncApp app) {
        Map<String, Double> m = new TreeMap<>();
        Map<String, Integer> threads = new TreeMap<>();
        for (Metric metric : app.streams().metrics().values()) {
            MetricName n = metric.metricName();
            if (n.group().equals("stream-thread-metrics") && metric.metricValue() instanceof Double v
                    && !v.isNaN()) {
                m.merge(n.name(), v, Double::sum);
                threads.merge(n.name(), 1, Integer::sum);
            }
        }
        // the mean over the threads, but commits per second of all of them
        m.replaceAll((name, sum) -> name.equals("commit-rate") ? sum : sum / threads.get(name));
        return String.format(Locale.ROOT, "poll %.0f %%, process %.0f %%, punctuate %.0f %%, commit %.0f %% "
                        + "(%.1f commits/s, %.0f ms each); %.0f records per poll",
                100 * m.getOrDefault("poll-ratio", Double.NaN), 100 * m.getOrDefault("process-ratio", Double.NaN),
                100 * m.getOrDefault("punctuate-ratio", Double.NaN), 100 * m.getOrDefault("commit-ratio", Double.NaN),
                m.getOrDefault("commit-rate", Double.NaN), m.getOrDefault("commit-latency-avg", Double.NaN),
                m.getOrDefault("poll-records-avg", Double.NaN));
    }
}
