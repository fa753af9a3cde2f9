package io.tracesync.core.link;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Random pair streams for differential tests: each pair is {aToB ? 1 : 0, x, y} in link coordinates. */
public final class Scenarios {

    public enum Shape {
        /** Linear clocks, offsets up to hours, drift up to ±500 ppm, exponential delays, lost pairs. */
        REALISTIC,
        /** Realistic pairs in one direction only. */
        ONE_WAY,
        /** A clock whose rate changes mid-stream with tiny delays: becomes infeasible. */
        WANDERING,
        /** Tiny integer grid: equal x, collinear and duplicate points, touching and crossing hulls. */
        GRID,
        /** The grid scaled to 2^59 and shifted: coordinates near ±2^63, differences overflow a long. */
        HUGE
    }

    private Scenarios() {
    }

    public static List<long[]> generate(Shape shape, long seed, int n) {
        Random r = new Random(seed);
        List<long[]> pairs = new ArrayList<>();
        switch (shape) {
            case REALISTIC, ONE_WAY, WANDERING -> {
                long offA = (long) ((r.nextDouble() - 0.5) * 2 * 3_600e9) + (r.nextBoolean() ? 1L << 62 : 0);
                long offB = (long) ((r.nextDouble() - 0.5) * 2 * 3_600e9) + (r.nextBoolean() ? 1L << 62 : 0);
                double driftA = (r.nextDouble() - 0.5) * 1e-3;
                double driftB = (r.nextDouble() - 0.5) * 1e-3;
                double minDelay = shape == Shape.WANDERING ? 10 : 20_000 + r.nextDouble() * 50_000;
                double meanExtra = shape == Shape.WANDERING ? 50 : 5_000 + r.nextDouble() * 200_000;
                double t = 0;
                for (int i = 0; i < n; i++) {
                    t += r.nextDouble() * 2e8;
                    double wander = shape == Shape.WANDERING && i > n / 2 ? 2e-4 * (t - 1e8 * n / 2.0) : 0;
                    double delay = minDelay - meanExtra * Math.log(1 - r.nextDouble());
                    boolean aToB = shape == Shape.ONE_WAY || r.nextBoolean();
                    double send = t;
                    double recv = t + delay;
                    long clockAsend = offA + Math.round(send * (1 + driftA));
                    long clockBrecv = offB + Math.round(recv * (1 + driftB) + wander);
                    long clockBsend = offB + Math.round(send * (1 + driftB) + wander);
                    long clockArecv = offA + Math.round(recv * (1 + driftA));
                    pairs.add(aToB ? new long[] {1, clockAsend, clockBrecv} : new long[] {0, clockArecv, clockBsend});
                }
                shuffleSome(pairs, r);
            }
            case GRID, HUGE -> {
                long scale = shape == Shape.HUGE ? 1L << 59 : 1;
                long base = shape == Shape.HUGE ? (r.nextBoolean() ? 1L << 62 : -(1L << 62)) : 0;
                int span = shape == Shape.HUGE ? 7 : 12;
                for (int i = 0; i < n; i++) {
                    long gx = r.nextInt(span + 1);
                    long gy = r.nextInt(span + 1);
                    boolean aToB = r.nextInt(3) > 0 ? gy >= gx : gy < gx; // mostly on the right side of y = x
                    long x = shape == Shape.HUGE ? base + (gx - span / 2) * scale : gx;
                    long y = shape == Shape.HUGE ? -base + (gy - span / 2) * scale : gy;
                    pairs.add(new long[] {aToB ? 1 : 0, x, y});
                }
            }
        }
        return pairs;
    }

    /** b's clock in the pairs of {@link #acrossAGridPoint}, as a function of a's: 5000 s ahead, 13 ppb slow. */
    public static long bOf(long a) {
        return 5_000_000_000_000L + a - a / 77_000_000;
    }

    /**
     * 200 messages in a's clock order over 4 minutes, alternating directions, from 13 to 17 minutes of a's clock:
     * across the 15-minute grid point of the default horizon's epochs. Delays 30 to 80 us.
     */
    public static List<long[]> acrossAGridPoint() {
        List<long[]> pairs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long t = 780_000_000_000L + i * 1_200_000_000L;
            long delay = 30_000 + i * 7_919L % 50_000;
            pairs.add(i % 2 == 0 ? new long[] {1, t, bOf(t + delay)} : new long[] {0, t + delay, bOf(t)});
        }
        return pairs;
    }

    /** Arbitrary interleavings: sometimes in order, sometimes locally or fully shuffled. */
    private static void shuffleSome(List<long[]> pairs, Random r) {
        switch (r.nextInt(3)) {
            case 0 -> {
            }
            case 1 -> Collections.shuffle(pairs, r);
            default -> {
                for (int i = 0; i < pairs.size() / 4; i++) {
                    int k = r.nextInt(pairs.size() - 1);
                    Collections.swap(pairs, k, Math.min(pairs.size() - 1, k + 1 + r.nextInt(5)));
                }
            }
        }
    }
}
