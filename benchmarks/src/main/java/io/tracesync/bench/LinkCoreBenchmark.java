package io.tracesync.bench;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkOptions;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Matched pairs per second through one link's synchronizer, 30 min horizon: {@code linear} clocks (one window, two
 * epochs), the application's default clock model, {@code bending} (ρ′ = 20 ppb/s, windows from 30 s, each 4 times
 * the last, up to the horizon, two epochs each), the same with the datasheet bound, {@code datasheet} (R = 200
 * ppm: two more comparisons per pair), and with an offset excursion, {@code excursion} (Φ = 20 µs: the windows kept
 * twice, shifted and not), measured in the same run.
 * <ul>
 *   <li>realistic: 1M pairs, 1000 messages/s both ways, 50 us + exponential(200 us) delays, 1 % interrupt
 *       spikes, in timestamp order — almost every pair is rejected by one orientation test;</li>
 *   <li>reordered: the same stream with 25 % of pairs displaced by up to 64 positions (partitions, directions);</li>
 *   <li>adversarial: every pair is faster than all before it, so every pair narrows the corridor.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LinkCoreBenchmark {

    static final int PAIRS = 1_000_000;

    @Param({"realistic", "reordered", "adversarial"})
    String stream;

    @Param({"linear", "bending", "datasheet", "excursion"})
    String model;

    LinkPairStream input;
    LinkOptions options;

    @Setup(Level.Trial)
    public void generate() {
        Random r = new Random(42);
        input = new LinkPairStream(PAIRS, 1_000_000.0, stream.equals("adversarial"), r);
        if (stream.equals("reordered")) {
            input.reorder(r);
        }
        LinkOptions bending = LinkOptions.DEFAULT.withCurvature(LinkOptions.DEFAULT_CURVATURE_PPB_PER_S,
                LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        options = switch (model) {
            case "linear" -> LinkOptions.DEFAULT;
            case "bending" -> bending;
            case "excursion" -> bending.withExcursion(20_000);
            default -> bending.withMaxDrift(200);
        };
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public ConvexHullLink pairs() {
        ConvexHullLink link = new ConvexHullLink(options);
        LinkPairStream p = input;
        for (int i = 0; i < PAIRS; i++) {
            p.add(link, i);
        }
        return link;
    }
}
