package io.tracesync.bench;

import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Random;

/**
 * The cost of the network-wide intervals ({@link NetworkSync#evaluate}) on a connected random network: every node
 * a linear clock (drift up to ±100 ppm), every link an estimate of its true relation off by up to half its bound
 * width (50-500 µs), slope ranges of 10^-8..10^-6. Each round a fraction of the links takes new estimates and the
 * clock moves on a second, as between two emissions of the stream; times the updates with the drain that follows
 * (the forest and the tree factors), the evaluation from every link (whose answer depends on the state alone; the
 * components it reads are kept and brought up to date) and the tree method's, each the median of the rounds. With
 * an offset excursion Φ ({@code link.excursion}) every link's bounds hold it on each side, as the link core's do, and
 * the network counts it per node ({@code AnchoredFactor.excursionPs}).
 */
public final class IntervalsBenchmark {

    /** The workload. */
    public record Config(int nodes, int links, double changedFraction, int rounds, long seed, long excursionPs) {
    }

    private final Config config;
    private final Random random;
    private final RandomNetwork network;
    private long latest = 1_700_000_000_000_000_000L;

    public IntervalsBenchmark(Config config) {
        this.config = config;
        this.random = new Random(config.seed());
        this.network = new RandomNetwork(config.nodes(), config.links(), random);
    }

    /** An estimate of link i consistent with the true clocks at the current latest time, its bounds holding Φ. */
    private LinkEstimate estimate(int i) {
        LinkEstimate e = network.estimate(i, latest, random);
        long phi = config.excursionPs();
        return phi == 0 ? e : new LinkEstimate(e.key(), e.quality(), e.aToB(), e.slopeAccuracy(), e.minSlope(),
                e.maxSlope(), e.latestNs(), e.upPs() + phi, e.downPs() + phi, e.curvature(), e.step(), phi);
    }

    /** Runs and prints one line of figures. */
    public void run(PrintWriter out) {
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT.withExcursion(config.excursionPs()));
        for (int i = 0; i < network.links(); i++) {
            net.update(estimate(i));
        }
        long[] all = new long[config.rounds()];
        long[] tree = new long[config.rounds()];
        long[] updates = new long[config.rounds()];
        int iterations = 0;
        int changed = Math.max(1, (int) (network.links() * config.changedFraction()));
        LinkEstimate[] batch = new LinkEstimate[changed];
        for (int round = 0; round < config.rounds(); round++) {
            latest += 1_000_000_000L;
            for (int k = 0; k < changed; k++) {
                batch[k] = estimate(random.nextInt(network.links()));
            }
            long t0 = System.nanoTime();
            for (LinkEstimate e : batch) {
                net.update(e);
            }
            net.drain();
            updates[round] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            iterations = net.evaluate(NetworkMethod.ALL_LINKS, NetworkIntervals.Weighting.DEFAULT, null).iterations();
            all[round] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            net.evaluate(NetworkMethod.TREE, null, null);
            tree[round] = System.nanoTime() - t0;
        }
        out.printf("%8d %8d %8d | %10.1f | %12.1f %8d | %10.1f%n", config.nodes(), network.links(), changed,
                median(updates) / 1e6, median(all) / 1e6, iterations, median(tree) / 1e6);
        out.flush();
    }

    private static double median(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
