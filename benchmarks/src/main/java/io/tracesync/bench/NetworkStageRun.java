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
import org.apache.kafka.common.serialization.Serializer;

/**
 * The network step alone ({@link NetworkStage}) fed with the summary streams the link step emits: a random network
 * of linear clocks ({@link RandomNetwork}) whose every link replays one of a few hundred template links' summaries
 * ({@link LinkTemplates}: simulated links through the application's link step), moved onto it and shifted by a
 * random number of commit intervals up to {@code phaseNs}. Measured over {@code durationNs} of link time from the
 * links' age {@code fromNs}: from 0 a cold start (every link new within the phase), from 30 min on the steady state
 * (the network first loaded with every link's latest summary, untimed). Prints, per {@code reportNs} of link time, the
 * summaries that arrived, the task's thread time per second of link time, its backlog and the nodes with a factor.
 */
final class NetworkStageRun {

    private static final String TOPIC = "network";
    /** How far before its anchor a published factor is checked against the truth too. */
    private static final long CHECK_AWAY_NS = 10_000_000_000L;

    /**
     * @param linksPerNode links per node counted once (10: 20 per node counting both ends)
     * @param templates    template links simulated, whose streams the network's links replay
     */
    record Config(int nodes, int linksPerNode, double pairsPerS, int templates, long fromNs, long durationNs,
            long phaseNs, long reportNs, boolean wander, long seed) {
    }

    /** What the run measured: thread time of the summaries and of the emissions, per second of link time. */
    record Result(long summaries, double linkS, double processS, double emitS, long emissions, double allPublishedS,
            double allBoundedS, double caughtUpS, double maxBacklogS, long factorsChecked, long factorsHolding,
            long inconsistentLinks, long factorRecords, long treeRecords, long referenceChanges, double meanLagS,
            double maxLagS) {

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
        LinkTemplates templates = LinkTemplates.record(new SummaryRate.Config(config.templates(), config.pairsPerS(),
                config.fromNs() + config.durationNs() + config.phaseNs() + 2_000_000_000L, config.wander(),
                config.seed()), settings);
        List<LinkTemplates.Template> streams = templates.templates();
        long commitNs = templates.commitNs();
        Random random = new Random(config.seed());
        RandomNetwork network = new RandomNetwork(config.nodes(), config.nodes() * config.linksPerNode(), random);
        int links = network.links();
        int maxShift = (int) (config.phaseNs() / commitNs);
        int[] shift = new int[links];
        double[] scale = new double[links];
        for (int l = 0; l < links; l++) {
            shift[l] = random.nextInt(maxShift + 1);
            scale[l] = 0.8 + 0.4 * random.nextDouble();
        }
        int first = config.fromNs() == 0 ? 0 : (int) (config.fromNs() / commitNs) + maxShift;
        int last = first + (int) (config.durationNs() / commitNs);
        out.printf(Locale.ROOT, "%d template links recorded, %d summaries, in %.1f s; %,d nodes, %,d links%n",
                streams.size(), streams.stream().mapToInt(t -> t.summaries.size()).sum(),
                (System.nanoTime() - start) / 1e9, network.nodes(), links);
        out.flush();

        Topics topics = new Topics(settings);
        Serializer<LinkId> keys = topics.linkId.serializer();
        Serializer<LinkSummary> values = topics.linkSummary.serializer();
        long commit0 = SimulationConfig.START_NS;
        long startNs = commit0 + (long) first * commitNs;
        long[] checked = new long[2];
        NetworkStage stage = new NetworkStage(settings, startNs, f -> {
            if (f.getAnchorNs() != null && f.getUpPs() != null && f.getDownPs() != null) {
                checked[0]++;
                if (holdsTruth(f, network)) {
                    checked[1]++;
                }
            }
        });
        int[] next = new int[links];
        List<byte[]> keyBytes = new ArrayList<>();
        List<byte[]> valueBytes = new ArrayList<>();
        for (int l = 0; l < links; l++) {
            LinkTemplates.Template t = streams.get(l % streams.size());
            next[l] = t.firstFrom(first - shift[l]);
            if (next[l] > 0) {
                LinkSummary s = templates.onto(t, next[l] - 1, network, l, shift[l] * commitNs, scale[l]);
                keyBytes.add(keys.serialize(TOPIC, new LinkId(s.getA(), s.getB())));
                valueBytes.add(values.serialize(TOPIC, s));
            }
        }
        long emitNs = settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG).toNanos();
        if (!keyBytes.isEmpty()) {
            // the steady state's network before the measured time: every link's latest summary and an emission,
            // untimed (the task's clock then starts again at the link time)
            stage.arrive(startNs, keyBytes, valueBytes);
            stage.idleUntil(stage.clockNs() + 2 * emitNs);
            stage.rebase(startNs);
            out.printf(Locale.ROOT, "loaded %,d links' latest summaries%n", keyBytes.size());
        }
        long loadedProcess = stage.processCpuNs();
        long loadedEmit = stage.emitCpuNs();
        long loadedEmissions = stage.emissions();
        long loadedLagMs = stage.lagMs();
        long loadedFactors = stage.stats.factorRecords.get();
        long loadedTrees = stage.stats.treeRecords.get();
        long loadedReferences = stage.stats.referenceChanges.get();

        out.printf("%8s %12s %10s %10s %8s %10s %10s %9s%n", "link s", "summaries/s", "process", "emissions",
                "thread", "backlog s", "published", "bounded");
        long summaries = 0;
        long reported = 0;
        int reportedG = first;
        long reportedProcess = loadedProcess;
        long reportedEmit = loadedEmit;
        int perReport = (int) Math.max(1, config.reportNs() / commitNs);
        double allPublished = Double.NaN;
        double allBounded = Double.NaN;
        double behindUntil = 0;
        double maxBacklog = 0;
        for (int g = first; g < last; g++) {
            keyBytes.clear();
            valueBytes.clear();
            for (int l = 0; l < links; l++) {
                LinkTemplates.Template t = streams.get(l % streams.size());
                while (next[l] < t.summaries.size() && t.commit(next[l]) + shift[l] <= g) {
                    LinkSummary s = templates.onto(t, next[l]++, network, l, shift[l] * commitNs, scale[l]);
                    keyBytes.add(keys.serialize(TOPIC, new LinkId(s.getA(), s.getB())));
                    valueBytes.add(values.serialize(TOPIC, s));
                }
            }
            long at = commit0 + (long) (g + 1) * commitNs;
            stage.arrive(at, keyBytes, valueBytes);
            summaries += keyBytes.size();
            double linkS = (double) (g + 1 - first) * commitNs / 1e9;
            double backlog = (stage.clockNs() - at) / 1e9;
            maxBacklog = Math.max(maxBacklog, backlog);
            if (backlog > emitNs / 1e9) {
                behindUntil = linkS + backlog;
            }
            if (Double.isNaN(allPublished) && stage.publishedNodes() == network.nodes()) {
                allPublished = linkS + backlog;
            }
            if (Double.isNaN(allBounded) && stage.boundedNodes() == network.nodes()) {
                allBounded = linkS + backlog;
            }
            if ((g + 1 - first) % perReport == 0 || g == last - 1) {
                double span = (double) (g + 1 - reportedG) * commitNs / 1e9;
                out.printf(Locale.ROOT, "%8.1f %12.0f %10.3f %10.3f %8.3f %10.2f %10d %9d%n", linkS,
                        (summaries - reported) / span, (stage.processCpuNs() - reportedProcess) / 1e9 / span,
                        (stage.emitCpuNs() - reportedEmit) / 1e9 / span,
                        (stage.processCpuNs() - reportedProcess + stage.emitCpuNs() - reportedEmit) / 1e9 / span,
                        backlog, stage.publishedNodes(), stage.boundedNodes());
                out.flush();
                reported = summaries;
                reportedG = g + 1;
                reportedProcess = stage.processCpuNs();
                reportedEmit = stage.emitCpuNs();
            }
        }
        return new Result(summaries, (double) (last - first) * commitNs / 1e9,
                (stage.processCpuNs() - loadedProcess) / 1e9, (stage.emitCpuNs() - loadedEmit) / 1e9,
                stage.emissions() - loadedEmissions, allPublished, allBounded, behindUntil, maxBacklog,
                checked[0], checked[1], stage.stats.inconsistentLinks.get(),
                stage.stats.factorRecords.get() - loadedFactors, stage.stats.treeRecords.get() - loadedTrees,
                stage.stats.referenceChanges.get() - loadedReferences,
                (stage.lagMs() - loadedLagMs) / 1e3 / Math.max(1, stage.emissions() - loadedEmissions),
                stage.maxLagMs() / 1e3);
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
        return Integer.parseInt(name.substring(1));
    }
}
