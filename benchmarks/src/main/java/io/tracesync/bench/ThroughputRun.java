package io.tracesync.bench;

import io.tracesync.streams.Settings;
import io.tracesync.streams.TopicCreator;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.metrics.PipelineStats;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * An application's end-to-end throughput on events already in its input topic: from the first event it reads to
 * the moment the application says every event went through every hop (with exactly_once_v2, that includes every
 * commit on the way).
 */
final class ThroughputRun {

    /** An application under measurement: how far it got, and when every event went through. */
    interface Measured extends AutoCloseable {

        KafkaStreams streams();

        /** Events read so far. */
        long events();

        /** Whether every event went through every hop. */
        boolean done();

        /** Where it stands, for a run that does not finish; what it did, for one that did. */
        String progress();

        @Override
        void close();
    }

    record Result(long events, double seconds, double startupSeconds, String threadTime, double streamCpuNs,
            double processCpuNs, long liveHeapBytes, String did) {
        double eventsPerSecond() {
            return events / seconds;
        }
    }

    private ThroughputRun() {
    }

    /** tracesync: done when every event was checked, every true pair matched and every summary applied. */
    static Measured tracesync(Settings settings, long events, long pairs) throws InterruptedException {
        TracesyncApp app = TracesyncApp.start(settings);
        PipelineStats s = app.stats();
        return new Measured() {
            @Override
            public KafkaStreams streams() {
                return app.streams();
            }

            @Override
            public long events() {
                return s.events.get();
            }

            @Override
            public boolean done() {
                return s.events.get() >= events && s.linkPairs.get() >= pairs
                        && s.networkUpdates.get() == s.linkSummaries.get();
            }

            @Override
            public String progress() {
                return String.format("%,d of %,d events, %,d of %,d pairs, %,d of %,d link summaries applied; "
                        + "%,d links ACCURATE", s.events.get(), events, s.linkPairs.get(), pairs,
                        s.networkUpdates.get(), s.linkSummaries.get(), s.accurateLinks.get());
            }

            @Override
            public void close() {
                app.close();
            }
        };
    }

    /** The floor ({@link FloorTopology}): done when every event and pair went through every hop. */
    static Measured floor(Settings settings, long events, FloorTopology.StoreKind stores)
            throws InterruptedException {
        Topics topics = new Topics(settings);
        FloorCounts counts = new FloorCounts();
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            TopicCreator.create(admin, topics.outputs());
        }
        return started(FloorTopology.build(settings, topics, counts, stores), settings,
                counts.segmentReads::get, () -> counts.done(events), counts::toString);
    }

    /**
     * One stage of tracesync alone ({@link StageTopology}) on the {@code records} its hop carried ({@code hopTopic};
     * null: the input): done when it read them all.
     */
    static Measured stage(StageTopology.Stage stage, String hopTopic, Settings settings, long records)
            throws InterruptedException {
        Topics topics = new Topics(settings);
        String output = settings.get(StreamsConfig.APPLICATION_ID_CONFIG) + ".stage-output";
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            List<NewTopic> create = new ArrayList<>(topics.outputs());
            create.add(new NewTopic(output, Optional.empty(), Optional.empty()));
            TopicCreator.create(admin, create);
        }
        AtomicLong consumed = new AtomicLong();
        PipelineStats stats = new PipelineStats();
        return started(StageTopology.build(stage, hopTopic, output, settings, topics, stats, consumed), settings,
                consumed::get, () -> consumed.get() >= records,
                () -> String.format("%s: %,d of %,d records read", stage.name(), consumed.get(), records));
    }

    /** A plain Kafka Streams application of {@code topology}, started, measured by these three. */
    private static Measured started(Topology topology, Settings settings, LongSupplier events, BooleanSupplier done,
            Supplier<String> progress) {
        KafkaStreams streams = new KafkaStreams(topology, settings.streamsProperties());
        streams.start();
        return new Measured() {
            @Override
            public KafkaStreams streams() {
                return streams;
            }

            @Override
            public long events() {
                return events.getAsLong();
            }

            @Override
            public boolean done() {
                return done.getAsBoolean();
            }

            @Override
            public String progress() {
                return progress.get();
            }

            @Override
            public void close() {
                streams.close(Duration.ofSeconds(30));
            }
        };
    }

    static Result run(Measured app, long events, Duration timeout) throws InterruptedException {
        long began = System.nanoTime();
        long deadline = began + timeout.toNanos();
        try (app) {
            long first = 0;
            long[] cpuAtFirst = null;
            while (true) {
                long now = System.nanoTime();
                if (first == 0 && app.events() > 0) {
                    first = now;
                    cpuAtFirst = cpu();
                }
                if (first != 0 && app.done()) {
                    long[] cpu = cpu();
                    return new Result(events, (now - first) / 1e9, (first - began) / 1e9, threadTime(app.streams()),
                            (cpu[0] - cpuAtFirst[0]) / (double) events, (cpu[1] - cpuAtFirst[1]) / (double) events,
                            HeapAfterCollections.liveBytes(), app.progress());
                }
                if (now > deadline) {
                    throw new IllegalStateException("not done after " + timeout + ": " + app.progress());
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
    private static String threadTime(KafkaStreams streams) {
        Map<String, Double> m = new TreeMap<>();
        Map<String, Integer> threads = new TreeMap<>();
        for (Metric metric : streams.metrics().values()) {
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
