package io.tracesync.bench;

import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.RegionalSync;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The network solved whole ({@link NetworkSync}) and in regions ({@link RegionalSync}) on the same connected random
 * network of regions: every node a linear clock (drift up to ±100 ppm), every link an estimate of its true
 * relation off by up to half its bound width (50-500 µs), slope ranges of 10^-8..10^-6. Each round a fraction of
 * the links takes new estimates and the clock moves on a second, as between two emissions of the stream; each
 * side applies them and answers. Times each side (the regions' each, the backbone's, updates included), and after
 * the last round
 * compares every node's interval at its anchor, checking both answers against the true clocks.
 */
public final class RegionsBenchmark {

    /** The workload. */
    public record Config(int nodes, int links, int regions, double crossing, int perPair, double changedFraction,
            int rounds, long seed) {
    }

    /** Medians over the rounds (ms), the backbone's size, and the last round's intervals compared. */
    public record Result(double wholeMs, double updatesMs, double busiestRegionMs, double backboneMs,
            double[] busiestTaskMs, int backboneNodes, int backboneLinks, double[] widthRatio, long factors,
            long holding) {
    }

    /** Task counts the regions are dealt to, for {@link Result#busiestTaskMs}. */
    public static final int[] TASKS = {1, 2, 4};

    private final Config config;
    private final Random random;
    private final RandomNetwork network;
    private long latest = 1_700_000_000_000_000_000L;

    public RegionsBenchmark(Config config) {
        this.config = config;
        this.random = new Random(config.seed());
        this.network = new RandomNetwork(config.nodes(), config.links(), random, config.regions(), config.crossing());
    }

    /** An estimate of link i consistent with the true clocks at the current latest time. */
    private LinkEstimate estimate(int i) {
        return network.estimate(i, latest, random);
    }

    public Result run() {
        // both pinned to the same node, so that their intervals compare
        NetworkOptions options = NetworkOptions.DEFAULT.withPinnedReference(network.names[0]);
        NetworkSync whole = new NetworkSync(options);
        RegionalSync regional = new RegionalSync(options, network::region, config.perPair());
        for (int i = 0; i < network.links(); i++) {
            LinkEstimate e = estimate(i);
            whole.update(e);
            regional.update(e);
        }
        int rounds = config.rounds();
        long[] wholeNs = new long[rounds];
        long[] updatesNs = new long[rounds];
        long[] regionNs = new long[rounds];
        long[] backboneNs = new long[rounds];
        long[][] taskNs = new long[TASKS.length][rounds];
        int changed = Math.max(1, (int) (network.links() * config.changedFraction()));
        LinkEstimate[] batch = new LinkEstimate[changed];
        Map<String, NodeFactor> wholeAnswer = new HashMap<>();
        Map<String, NodeFactor> regionalAnswer = Map.of();
        RegionalSync.Work work = null;
        for (int round = 0; round < rounds; round++) {
            latest += 1_000_000_000L;
            for (int k = 0; k < changed; k++) {
                batch[k] = estimate(random.nextInt(network.links()));
            }
            long t0 = System.nanoTime();
            for (LinkEstimate e : batch) {
                whole.update(e);
            }
            whole.drain();
            wholeAnswer.clear();
            whole.evaluate(null).factors().forEach(f -> wholeAnswer.put(f.node(), f.nodeFactor()));
            wholeNs[round] = System.nanoTime() - t0;
            work = new RegionalSync.Work();
            t0 = System.nanoTime();
            for (LinkEstimate e : batch) {
                regional.update(e, work);
            }
            updatesNs[round] = System.nanoTime() - t0;
            regionalAnswer = regional.evaluate(work);
            regionNs[round] = work.regionNs.values().stream().mapToLong(Long::longValue).max().orElse(0);
            backboneNs[round] = work.backboneNs;
            for (int i = 0; i < TASKS.length; i++) {
                taskNs[i][round] = work.busiestTaskNs(TASKS[i]);
            }
        }
        double[] busiestTask = new double[TASKS.length];
        for (int i = 0; i < TASKS.length; i++) {
            busiestTask[i] = median(taskNs[i]) / 1e6;
        }
        double[] ratio = new double[wholeAnswer.size()];
        int n = 0;
        long holding = 0;
        for (NodeFactor w : wholeAnswer.values()) {
            NodeFactor r = regionalAnswer.get(w.node());
            holding += (holds(w) ? 1 : 0) + (r != null && holds(r) ? 1 : 0);
            if (r != null && w.factor().bounded() && r.factor().bounded() && !w.node().equals(w.reference())) {
                ratio[n++] = (double) (r.factor().upPs() + r.factor().downPs())
                        / (w.factor().upPs() + w.factor().downPs());
            }
        }
        ratio = Arrays.copyOf(ratio, n);
        Arrays.sort(ratio);
        return new Result(median(wholeNs) / 1e6, median(updatesNs) / 1e6, median(regionNs) / 1e6,
                median(backboneNs) / 1e6, busiestTask, work.backboneNodes, work.backboneLinks,
                new double[] {quantile(ratio, 0.5), quantile(ratio, 0.9), quantile(ratio, 0.99),
                    quantile(ratio, 1)}, 2L * wholeAnswer.size(), holding);
    }

    /** Whether a node's factor holds its reference's true time at its anchor (to the 1 ns of the clocks' rounding). */
    private boolean holds(NodeFactor f) {
        if (!f.factor().bounded()) {
            return true;
        }
        int v = RandomNetwork.index(f.node());
        int ref = RandomNetwork.index(f.reference());
        long x = f.factor().anchorNs();
        long truth = network.local(ref, network.trueAt(v, x));
        Conversion c = Conversion.of(f.factor(), x);
        return c.lowerNs() - 1 <= truth && truth <= c.upperNs() + 1;
    }

    private static double quantile(double[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, q * sorted.length)];
    }

    private static double median(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** Prints the result on one line of the table {@code BenchRegionsCommand} heads. */
    public void print(Result r, PrintWriter out) {
        out.printf("%7d %8d %4d %5.2f %4d | %8.1f | %8.1f %8.1f %8.1f %6d %7d | %7.1f %7.1f %7.1f | %5.2f %5.2f %5.2f %5.2f"
                + " | %d/%d%n", config.nodes(), network.links(), config.regions(), config.crossing(), config.perPair(), r.wholeMs(),
                r.updatesMs(), r.busiestRegionMs(), r.backboneMs(), r.backboneNodes(), r.backboneLinks(),
                r.busiestTaskMs()[0], r.busiestTaskMs()[1], r.busiestTaskMs()[2], r.widthRatio()[0],
                r.widthRatio()[1], r.widthRatio()[2], r.widthRatio()[3], r.holding(), r.factors());
        out.flush();
    }
}
