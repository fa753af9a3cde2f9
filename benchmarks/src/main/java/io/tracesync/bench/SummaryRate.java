package io.tracesync.bench;

import io.tracesync.avro.LinkSummary;
import io.tracesync.console.UserError;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.Simulator;
import io.tracesync.streams.Settings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How many link summaries the network task receives per link, by the link's age: a simulated cluster's true pairs,
 * batched per link and commit interval of their receive's true time as the {@code pairs} hop batches them, go
 * through the application's link step ({@link LinkStep}), and each batch's pairs and summaries are counted in the
 * age bucket of its commit (time since the link's first pair).
 */
final class SummaryRate {

    private static final long S = 1_000_000_000L;
    /** The age buckets' edges: 0–10 s, 10 s–1 min, 1–10 min, 10–30 min, 30–60 min, 1–6 h, 6–24 h, beyond. */
    static final long[] EDGES = {0, 10 * S, 60 * S, 600 * S, 1_800 * S, 3_600 * S, 21_600 * S, 86_400 * S,
            Long.MAX_VALUE};

    /**
     * @param links     request/response links, each between two of as many nodes with the simulator's default
     *                  clocks and delays
     * @param pairsPerS each link's pairs per second: half as many requests, each answered
     */
    record Config(int links, double pairsPerS, long durationNs, boolean wander, long seed) {
    }

    /**
     * One age bucket, {@code [fromNs, toNs)}, over all links: {@code linkNs} is the link time it covers,
     * {@code batches} the batches the link step read (it forwards at most one summary for each).
     */
    record Bucket(long fromNs, long toNs, double linkNs, long pairs, long summaries, long batches) {

        double pairsPerLinkS() {
            return pairs / (linkNs / S);
        }

        double summariesPerLinkS() {
            return summaries / (linkNs / S);
        }

        double batchesPerLinkS() {
            return batches / (linkNs / S);
        }

        double emittingFraction() {
            return (double) summaries / pairs;
        }

        /** Summaries per link per e-fold of age: c if the rate is c / age (NaN from age 0). */
        double perEFold() {
            return fromNs == 0 ? Double.NaN
                    : summaries / (linkNs / (toNs - fromNs)) / Math.log((double) toNs / fromNs);
        }
    }

    /**
     * @param counted      summaries by {@code PipelineStats.linkSummaries}
     * @param firstEmitted links whose first batch forwarded a summary
     */
    record Result(List<Bucket> buckets, int links, long pairs, long summaries, long counted, int firstEmitted) {
    }

    private final Config config;
    private final Settings settings;
    private final long commitNs;

    /** {@code settings}: the application's, with a {@code mock://} registry (see {@link LinkStep}). */
    SummaryRate(Config config, Settings settings) {
        this.config = config;
        this.settings = settings;
        // the application's commit interval: Kafka Streams' default under exactly_once_v2 is 100 ms
        this.commitNs = new StreamsConfig(settings.streamsProperties())
                .getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG) * 1_000_000;
    }

    long commitIntervalNs() {
        return commitNs;
    }

    Result run() {
        Scenario scenario = scenario(config);
        Feed feed = new Feed(scenario, new LinkStep(settings));
        new Simulator(scenario).run(feed.commits, ns -> { });
        feed.commits.commit();
        return feed.result(scenario.endNs());
    }

    /** The simulated cluster of {@code config}: a ring of request/response links, each between two nodes. */
    static Scenario scenario(Config config) {
        if (config.links() < 3) {
            throw new UserError("need at least 3 links: " + config.links());
        }
        double rate = config.pairsPerS() / 2;
        return Scenario.build(SimulationConfig.builder().nodes(config.links())
                .degree(2) // as many links as nodes
                .rateMin(rate).rateMax(rate).oneWayFraction(0).durationNs(config.durationNs()).wander(config.wander())
                .seed(config.seed()).build());
    }

    private static int bucket(long ageNs) {
        int b = 1;
        while (ageNs >= EDGES[b]) {
            b++;
        }
        return b - 1;
    }

    /** Counts each link's pairs, batches and summaries in the age bucket of their commit. */
    private final class Feed implements CommitFeed.Listener {
        private final LinkStep step;
        private final CommitFeed commits;
        private final Set<CommitFeed.Link> committed = new HashSet<>();
        private final long[] pairs = new long[EDGES.length - 1];
        private final long[] summaries = new long[EDGES.length - 1];
        private final long[] batches = new long[EDGES.length - 1];
        private int firstEmitted;

        Feed(Scenario scenario, LinkStep step) {
            this.step = step;
            this.commits = new CommitFeed(scenario, step, commitNs, this);
        }

        @Override
        public void committed(CommitFeed.Link link, long atNs, int batchPairs, List<LinkSummary> emitted) {
            if (committed.add(link) && !emitted.isEmpty()) {
                firstEmitted++;
            }
            int b = bucket(atNs - link.firstNs);
            pairs[b] += batchPairs;
            summaries[b] += emitted.size();
            batches[b]++;
        }

        Result result(long endNs) {
            List<Bucket> buckets = new ArrayList<>();
            for (int b = 0; b < pairs.length; b++) {
                double linkNs = 0;
                long to = 0;
                for (CommitFeed.Link link : commits.links()) {
                    long age = endNs - link.firstNs;
                    linkNs += Math.max(0, Math.min(EDGES[b + 1], age) - EDGES[b]);
                    to = Math.max(to, Math.min(EDGES[b + 1], age));
                }
                if (linkNs > 0) {
                    buckets.add(new Bucket(EDGES[b], to, linkNs, pairs[b], summaries[b], batches[b]));
                }
            }
            long total = 0;
            for (long s : summaries) {
                total += s;
            }
            return new Result(buckets, commits.links().size(), step.stats.linkPairs.get(), total,
                    step.stats.linkSummaries.get(), firstEmitted);
        }
    }
}
