package io.tracesync.bench;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.PairEffect;
import io.tracesync.core.network.LinkEstimate;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a link's new estimate costs ({@code LinkEstimate.of}: Duda's bisector, slope accuracy, min slope and
 * Poirier's bounds), as the link step computes it after every pair that narrows the corridor. One young link, 25 s
 * of 400 messages/s each way (50 us + exponential(200 us) delays, 1 % interrupt spikes), when hulls narrow often:
 * {@code pairs} feeds the pairs alone, {@code pairsWithEstimates} also takes the estimate after each narrowing
 * pair. Both are per pair; the setup prints how many narrow, so that the cost of one estimate is
 * (pairsWithEstimates − pairs) · PAIRS / narrowing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LinkEstimateBenchmark {

    static final int PAIRS = 20_000;
    static final LinkKey KEY = LinkKey.between("a", "b");

    LinkPairStream stream;

    @Setup(Level.Trial)
    public void generate() {
        stream = new LinkPairStream(PAIRS, 1_250_000.0, false, new Random(42));
        int narrowing = 0;
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        for (int i = 0; i < PAIRS; i++) {
            narrowing += stream.add(link, i) == PairEffect.NARROWED ? 1 : 0;
        }
        System.out.println(narrowing + " of " + PAIRS + " pairs narrow the corridor");
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public ConvexHullLink pairs() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        for (int i = 0; i < PAIRS; i++) {
            stream.add(link, i);
        }
        return link;
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public long pairsWithEstimates() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        long sum = 0;
        for (int i = 0; i < PAIRS; i++) {
            if (stream.add(link, i) == PairEffect.NARROWED) {
                sum += LinkEstimate.of(KEY, link).upPs();
            }
        }
        return sum;
    }
}
