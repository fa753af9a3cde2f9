package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Factor;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The network step alone ({@link NetworkStage}, or with regions {@link RegionalStage}) fed with the summary streams
 * the link step emits: a random network
 * of linear clocks ({@link RandomNetwork}) whose every link replays one of a few hundred template links' summaries
 * ({@link LinkTemplates}: simulated links through the application's link step), moved onto it and shifted by a
 * random number of commit intervals up to {@code phaseNs}. Measured over {@code durationNs} of link time from the
 * links' age {@code fromNs}: from 0 a cold start (every link new within the phase), from 30 min on the steady state
 * (the network first loaded with every link's latest summary and fed 30 s more, untimed). Prints, per {@code reportNs} of link time, the
 * summaries that arrived, the task's thread time per second of link time, its backlog and the nodes with a factor.
 */
final class NetworkStageRun {

    private static final String TOPIC = "network";
    /** Link time a steady run feeds untimed after loading the network, before the measured time. */
    private static final long WARM_NS = 30_000_000_000L;
    /** How far before its anchor a published factor is checked against the truth too. */
    private static final long CHECK_AWAY_NS = 10_000_000_000L;

    /**
     * @param linksPerNode links per node counted once (10: 20 per node counting both ends)
     * @param templates    template links simulated, whose streams the network's links replay
     * @param regions      regions of the network (0: none, the one network task; else {@link RegionalStage}, the
     *                     settings' {@code network.regions} being {@link RandomNetwork#REGION_PATTERN})
     * @param crossing     with regions, the fraction of the links beyond each region's tree between two regions
     */
    record Config(int nodes, int linksPerNode, double pairsPerS, int templates, long fromNs, long durationNs,
            long phaseNs, long reportNs, boolean wander, int regions, double crossing, long seed) {
    }

    /**
     * What the run measured: the busiest task's thread time of the summaries and of the emissions, every task's
     * thread time of the summaries together ({@code arrivalsS}: a summary of a link between regions arrives at three),
     * and every task's share of its thread (the regions' tasks, then the backbone's, with regions).
     */
    record Result(long summaries, double linkS, double processS, double emitS, double arrivalsS, long emissions,
            double[] taskShares,
            double allPublishedS,
            double allBoundedS, double caughtUpS, double maxBacklogS, long factorsChecked, long factorsHolding,
            long inconsistentLinks, long factorRecords, long treeRecords, long referenceChanges, double meanLagS,
            double maxLagS, long updates, long applied) {

        double share() {
            return (processS + emitS) / linkS;
        }
    }

    private final Config config;
    private final Settings settings;

    NetworkStageRun(Config config, Settings settings) {
        this.config = config;
        this.settings = settings;
    }

    Result run(PrintWriter out) {
        long start = System.nanoTime();
        long warmNs = config.fromNs() == 0 ? 0 : WARM_NS;
        LinkTemplates templates = LinkTemplates.record(new SummaryRate.Config(config.templates(), config.pairsPerS(),
                config.fromNs() + config.phaseNs() + warmNs + config.durationNs() + 2_000_000_000L, config.wander(),
                config.seed()), settings);
        Random random = new Random(config.seed());
        RandomNetwork network = new RandomNetwork(config.nodes(), config.nodes() * config.linksPerNode(), random,
                Math.max(1, config.regions()), config.crossing());
        Feed feed = new Feed(templates, network, random);
        long commitNs = templates.commitNs();
        out.printf(Locale.ROOT, "%d template links recorded, %d summaries, in %.1f s; %,d nodes, %,d links%n",
                templates.templates().size(), templates.templates().stream().mapToInt(t -> t.summaries.size()).sum(),
                (System.nanoTime() - start) / 1e9, network.nodes(), network.links());
        out.flush();

        // the steady state's network is first loaded with every link's latest summary and warmed up, untimed, for
        // WARM_NS of link time (the load's own emission spaces the next ones: the measured time starts after)
        int warm = (int) (warmNs / commitNs);
        int first = config.fromNs() == 0 ? 0 : (int) (config.fromNs() / commitNs) + feed.maxShift() + warm;
        int last = first + (int) (config.durationNs() / commitNs);
        long[] checked = new long[2];
        Consumer<SyncFactor> check = f -> {
            if (f.getAnchorNs() != null && f.getUpPs() != null && f.getDownPs() != null) {
                checked[0]++;
                if (holdsTruth(f, network)) {
                    checked[1]++;
                }
            }
        };
        Stage stage = config.regions() > 0 ? new RegionalStage(settings, feed.timeNs(first - warm), check)
                : new NetworkStage(settings, feed.timeNs(first - warm), check);
        Feed.Slice loaded = feed.latestBefore(first - warm);
        if (loaded.size() > 0) {
            stage.arrive(feed.timeNs(first - warm), loaded.keys(), loaded.values());
            stage.idleUntil(stage.clockNs() + 2 * settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG)
                    .toNanos());
            stage.rebase(feed.timeNs(first - warm));
            out.printf(Locale.ROOT, "loaded %,d links' latest summaries, then %d s untimed%n", loaded.size(),
                    WARM_NS / 1_000_000_000L);
        }
        for (int g = first - warm; g < first; g++) {
            Feed.Slice slice = feed.slice(g);
            stage.arrive(feed.timeNs(g + 1), slice.keys(), slice.values());
        }
        return measure(out, feed, stage, first, last, checked);
    }

    /** Feeds the slices first..last − 1 and prints a row per report. */
    private Result measure(PrintWriter out, Feed feed, Stage stage, int first, int last, long[] checked) {
        long commitNs = feed.commitNs;
        long emitNs = settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG).toNanos();
        Counters before = new Counters(stage, 0);
        Counters reported = before;
        out.printf("%8s %12s %10s %10s %8s %10s %10s %9s%n", "link s", "summaries/s", "process", "emissions",
                "thread", "backlog s", "published", "bounded");
        long summaries = 0;
        int reportedG = first;
        int perReport = (int) Math.max(1, config.reportNs() / commitNs);
        double allPublished = Double.NaN;
        double allBounded = Double.NaN;
        double behindUntil = 0;
        double maxBacklog = 0;
        for (int g = first; g < last; g++) {
            Feed.Slice slice = feed.slice(g);
            long at = feed.timeNs(g + 1);
            stage.arrive(at, slice.keys(), slice.values());
            summaries += slice.size();
            double linkS = (double) (g + 1 - first) * commitNs / 1e9;
            double backlog = (stage.clockNs() - at) / 1e9;
            maxBacklog = Math.max(maxBacklog, backlog);
            if (backlog > emitNs / 1e9) {
                behindUntil = linkS + backlog;
            }
            if (Double.isNaN(allPublished) && stage.publishedNodes() == feed.network.nodes()) {
                allPublished = linkS + backlog;
            }
            if (Double.isNaN(allBounded) && stage.boundedNodes() == feed.network.nodes()) {
                allBounded = linkS + backlog;
            }
            if ((g + 1 - first) % perReport == 0 || g == last - 1) {
                double span = (double) (g + 1 - reportedG) * commitNs / 1e9;
                Counters now = new Counters(stage, summaries);
                long[] busiest = now.busiestSince(reported);
                out.printf(Locale.ROOT, "%8.1f %12.0f %10.3f %10.3f %8.3f %10.2f %10d %9d%n", linkS,
                        (now.summaries - reported.summaries) / span, busiest[0] / 1e9 / span, busiest[1] / 1e9 / span,
                        (busiest[0] + busiest[1]) / 1e9 / span, backlog, stage.publishedNodes(), stage.boundedNodes());
                out.flush();
                reported = now;
                reportedG = g + 1;
            }
        }
        Counters after = new Counters(stage, summaries);
        long emissions = after.emissions - before.emissions;
        long[] busiest = after.busiestSince(before);
        double linkS = (double) (last - first) * commitNs / 1e9;
        double[] shares = new double[after.tasks.size()];
        long arrivalsNs = 0;
        for (int i = 0; i < shares.length; i++) {
            arrivalsNs += after.tasks.get(i)[0] - before.tasks.get(i)[0];
            shares[i] = (after.tasks.get(i)[0] + after.tasks.get(i)[1] - before.tasks.get(i)[0]
                    - before.tasks.get(i)[1]) / 1e9 / linkS;
        }
        return new Result(summaries, linkS, busiest[0] / 1e9, busiest[1] / 1e9, arrivalsNs / 1e9, emissions, shares,
                allPublished, allBounded, behindUntil, maxBacklog, checked[0], checked[1],
                stage.stats.inconsistentLinks.get(), after.factors - before.factors, after.trees - before.trees,
                after.references - before.references, (after.lagMs - before.lagMs) / 1e3 / Math.max(1, emissions),
                stage.emissions.maxLagMs() / 1e3, after.updates - before.updates, after.applied - before.applied);
    }

    /** The stage's running counts at one moment; per task its thread time, records and punctuations. */
    private record Counters(long summaries, List<long[]> tasks, long emissions, long lagMs, long factors,
            long trees, long references, long updates, long applied) {

        Counters(Stage stage, long summaries) {
            this(summaries, stage.taskCpuNs(), stage.emissions.count(), stage.emissions.lagMs(),
                    stage.stats.factorRecords.get(), stage.stats.treeRecords.get(),
                    stage.stats.referenceChanges.get(), stage.stats.networkUpdates.get(),
                    stage.stats.networkApplied.get());
        }

        /** The thread time, records and punctuations, since {@code before} of the task that took the most. */
        long[] busiestSince(Counters before) {
            long[] best = {0, 0};
            for (int i = 0; i < tasks.size(); i++) {
                long[] d = {tasks.get(i)[0] - before.tasks.get(i)[0], tasks.get(i)[1] - before.tasks.get(i)[1]};
                if (d[0] + d[1] > best[0] + best[1]) {
                    best = d;
                }
            }
            return best;
        }
    }

    /**
     * The network's summaries by commit interval: link l replays template l mod their count, shifted by a random
     * number of commit intervals up to the phase, its weight scaled by a random factor in [0.8, 1.2) so that the
     * copies of one template do not tie in the forest; each summary encoded as the {@code network} hop carries it.
     */
    private final class Feed {

        /** One commit interval's records, encoded. */
        record Slice(List<byte[]> keys, List<byte[]> values) {

            int size() {
                return keys.size();
            }
        }

        final RandomNetwork network;
        final long commitNs;
        private final LinkTemplates templates;
        private final List<LinkTemplates.Template> streams;
        private final int[] shift;
        private final double[] scale;
        private final int[] next;
        private final Serializer<LinkId> keys;
        private final Serializer<LinkSummary> values;

        Feed(LinkTemplates templates, RandomNetwork network, Random random) {
            this.templates = templates;
            this.network = network;
            this.streams = templates.templates();
            this.commitNs = templates.commitNs();
            int links = network.links();
            int maxShift = maxShift();
            shift = new int[links];
            scale = new double[links];
            for (int l = 0; l < links; l++) {
                shift[l] = random.nextInt(maxShift + 1);
                scale[l] = 0.8 + 0.4 * random.nextDouble();
            }
            next = new int[links];
            Topics topics = new Topics(settings);
            keys = topics.linkId.serializer();
            values = topics.linkSummary.serializer();
        }

        int maxShift() {
            return (int) (config.phaseNs() / commitNs);
        }

        /** The end of commit interval g, true time. */
        long timeNs(int g) {
            return SimulationConfig.START_NS + (long) g * commitNs;
        }

        /** Every link's latest summary before commit interval g; the slices then go on from g. */
        Slice latestBefore(int g) {
            Slice out = new Slice(new ArrayList<>(), new ArrayList<>());
            for (int l = 0; l < network.links(); l++) {
                next[l] = template(l).firstFrom(g - shift[l]);
                if (next[l] > 0) {
                    add(out, l, next[l] - 1);
                }
            }
            return out;
        }

        /** The summaries of commit interval g. */
        Slice slice(int g) {
            Slice out = new Slice(new ArrayList<>(), new ArrayList<>());
            for (int l = 0; l < network.links(); l++) {
                LinkTemplates.Template t = template(l);
                while (next[l] < t.summaries.size() && t.commit(next[l]) + shift[l] <= g) {
                    add(out, l, next[l]++);
                }
            }
            return out;
        }

        private LinkTemplates.Template template(int l) {
            return streams.get(l % streams.size());
        }

        private void add(Slice out, int l, int i) {
            LinkSummary s = templates.onto(template(l), i, network, l, shift[l] * commitNs, scale[l]);
            out.keys().add(keys.serialize(TOPIC, new LinkId(s.getA(), s.getB())));
            out.values().add(values.serialize(TOPIC, s));
        }
    }

    /**
     * Whether the factor's interval holds the reference's true reading at its anchor and {@link #CHECK_AWAY_NS}
     * before it (within a ns): there the bounds have grown by the factor's slope range, which the link summaries'
     * slope ranges make.
     */
    private static boolean holdsTruth(SyncFactor record, RandomNetwork network) {
        Factor f = PublishedFactor.of(record).factor();
        int node = node(record.getNode());
        int reference = node(record.getReference());
        for (long x : new long[] {f.anchorNs(), f.anchorNs() - CHECK_AWAY_NS}) {
            DoubleDouble truth = DoubleDouble.of(network.local(reference, network.trueAt(node, x)));
            double errorPs = truth.subtract(f.toReference().apply(x)).hi() * 1e3;
            if (errorPs > f.upAtPs(x) + 1_000 || -errorPs > f.downAtPs(x) + 1_000) {
                return false;
            }
        }
        return true;
    }

    private static int node(String name) {
        return RandomNetwork.index(name);
    }
}
