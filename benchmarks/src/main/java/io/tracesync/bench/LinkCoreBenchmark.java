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
 * Matched pairs per second through one link's synchronizer (default options: 30 min horizon, two epochs).
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

    boolean[] aToB;
    long[] send;
    long[] recv;

    @Setup(Level.Trial)
    public void generate() {
        Random r = new Random(42);
        aToB = new boolean[PAIRS];
        send = new long[PAIRS];
        recv = new long[PAIRS];
        long offB = 3_600_000_000_000L;
        double drift = 1 + 37e-6;
        for (int i = 0; i < PAIRS; i++) {
            double t = i * 1_000_000.0;
            double delay = stream.equals("adversarial")
                    ? 50_000 + 1e12 / (i + 1.0)
                    : 50_000 - 200_000 * Math.log(1 - r.nextDouble()) + (r.nextInt(100) == 0 ? 2e6 : 0);
            aToB[i] = (i & 1) == 0;
            if (aToB[i]) {
                send[i] = Math.round(t);
                recv[i] = offB + Math.round((t + delay) * drift);
            } else {
                send[i] = offB + Math.round(t * drift);
                recv[i] = Math.round(t + delay);
            }
        }
        if (stream.equals("reordered")) {
            for (int i = 0; i < PAIRS / 4; i++) {
                int k = r.nextInt(PAIRS - 64);
                swap(k, k + 1 + r.nextInt(63));
            }
        }
    }

    private void swap(int i, int j) {
        boolean d = aToB[i];
        aToB[i] = aToB[j];
        aToB[j] = d;
        long s = send[i];
        send[i] = send[j];
        send[j] = s;
        long v = recv[i];
        recv[i] = recv[j];
        recv[j] = v;
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public ConvexHullLink pairs() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        boolean[] dir = aToB;
        long[] s = send;
        long[] v = recv;
        for (int i = 0; i < PAIRS; i++) {
            if (dir[i]) {
                link.addAtoB(s[i], v[i]);
            } else {
                link.addBtoA(s[i], v[i]);
            }
        }
        return link;
    }
}
