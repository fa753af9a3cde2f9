package io.tracesync.core.link;

import io.tracesync.core.numeric.Rational;
import io.tracesync.files.PairsCsv;
import io.tracesync.sim.GroundTruth;
import io.tracesync.sim.PiecewiseLinearClock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ways to choose a link's window under the clock model of docs/LINK-CORE.md ("Clocks that bend"), measured per link
 * against a simulation's ground truth. Every {@code every} of a's clock, each window of the most recent pairs gives a
 * corridor whose points are relaxed by ρ′W²/8 (W the span of its points), hence an interval at that time that holds
 * whenever the clocks bend by at most ρ′, and the midpoint of that interval as an estimate. The rules: each window
 * alone; the narrowest interval; the intersection of all the intervals (each holds, so does their intersection)
 * with its midpoint; and the same intersection with the estimate of the longest window whose linear estimate (no
 * allowance) and every shorter one's lie inside it ("consistent"), or that also agree with each other
 * ("agreeing"). In package {@code core.link} for the
 * package-private {@link Corridor} (as {@code NetworkBenchmark} in {@code core.network}).
 */
public final class WindowRules {

    /** What to measure: the run, the windows, the rates ρ′ in ppb per second, known minimum delays or not. */
    public record Config(Path run, List<Duration> windows, List<Double> ratesPpbPerS, boolean knownMinDelays,
                         Duration every) {
    }

    /** One rule at one rate: errors and widths in ns, the samples inside their interval, windows infeasible. */
    public record Row(double ratePpbPerS, String rule, double[] errorsNs, double[] widthsNs, long inside,
                      long infeasible) {

        double median(double[] sorted) {
            return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
        }

        public double medianErrorNs() {
            return median(errorsNs);
        }

        public double p99ErrorNs() {
            return errorsNs.length == 0 ? Double.NaN : errorsNs[(int) (errorsNs.length * 0.99)];
        }

        public double medianWidthNs() {
            return median(widthsNs);
        }

        public double insidePercent() {
            return errorsNs.length == 0 ? Double.NaN : 100.0 * inside / errorsNs.length;
        }
    }

    /** An interval around the truth's reference value: lower and upper ends, relative to g(t). */
    private record Interval(double down, double up) {
        double width() {
            return up - down;
        }

        double middle() {
            return (up + down) / 2;
        }
    }

    private record Pair(boolean aToB, long x, long y) {
    }

    /** How far adjacent windows' linear estimates may differ, in units of the two shortest windows' difference. */
    static final double AGREEMENT = 4;

    private final Config config;
    private final Map<String, List<double[]>> samples = new LinkedHashMap<>();
    private final Map<String, Long> infeasible = new TreeMap<>();

    public WindowRules(Config config) {
        this.config = config;
    }

    /** Measures every link of the run; one row per rate and rule, windows first. */
    public List<Row> run() throws IOException {
        GroundTruth truth = GroundTruth.read(config.run());
        Map<LinkKey, List<Pair>> links = new TreeMap<>(Comparator.comparing(LinkKey::a).thenComparing(LinkKey::b));
        try (BufferedReader in = Files.newBufferedReader(config.run().resolve("truth-pairs.csv"))) {
            PairsCsv.read(in, "truth-pairs.csv", p -> {
                boolean aToB = p.sender().compareTo(p.receiver()) < 0;
                links.computeIfAbsent(p.link(), k -> new ArrayList<>()).add(aToB ? new Pair(true, p.sendNs(),
                        p.recvNs()) : new Pair(false, p.recvNs(), p.sendNs()));
            });
        }
        for (Map.Entry<LinkKey, List<Pair>> e : links.entrySet()) {
            measure(e.getKey(), e.getValue(), truth);
        }
        List<Row> rows = new ArrayList<>();
        for (double rate : config.ratesPpbPerS()) {
            for (String rule : rules()) {
                List<double[]> s = samples.getOrDefault(key(rate, rule), List.of());
                double[] errors = s.stream().mapToDouble(v -> Math.abs(v[0])).sorted().toArray();
                double[] widths = s.stream().mapToDouble(v -> v[1]).sorted().toArray();
                long inside = s.stream().filter(v -> v[2] > 0).count();
                rows.add(new Row(rate, rule, errors, widths, inside, infeasible.getOrDefault(key(rate, rule), 0L)));
            }
        }
        return rows;
    }

    /** Prints the rows as a table. */
    public static void print(List<Row> rows, PrintWriter out) {
        out.printf("%9s %-14s %8s %10s %10s %12s %8s %10s%n", "ppb/s", "rule", "samples", "median µs", "p99 µs",
                "width µs", "inside %", "infeasible");
        for (Row r : rows) {
            out.printf("%9.1f %-14s %8d %10.3f %10.3f %12.3f %8.2f %10d%n", r.ratePpbPerS(), r.rule(),
                    r.errorsNs().length, r.medianErrorNs() / 1e3, r.p99ErrorNs() / 1e3, r.medianWidthNs() / 1e3,
                    r.insidePercent(), r.infeasible());
        }
        out.flush();
    }

    private List<String> rules() {
        List<String> rules = new ArrayList<>(config.windows().stream().map(WindowRules::name).toList());
        rules.addAll(List.of("narrowest", "intersection", "consistent", "agreeing"));
        return rules;
    }

    private void measure(LinkKey link, List<Pair> pairs, GroundTruth truth) {
        List<Pair> sorted = new ArrayList<>(pairs);
        sorted.sort(Comparator.comparingLong(Pair::x));
        long[] xs = sorted.stream().mapToLong(Pair::x).toArray();
        long longest = config.windows().stream().mapToLong(Duration::toNanos).max().orElseThrow();
        long shortest = config.windows().stream().mapToLong(Duration::toNanos).min().orElseThrow();
        long minAtoB = config.knownMinDelays() ? truth.knownMinDelayNs(link.a(), link.b()) : 0;
        long minBtoA = config.knownMinDelays() ? truth.knownMinDelayNs(link.b(), link.a()) : 0;
        PiecewiseLinearClock a = truth.clock(link.a());
        PiecewiseLinearClock b = truth.clock(link.b());
        for (long t = xs[0] + Math.min(longest, 8 * shortest); t <= xs[xs.length - 1]; t += config.every().toNanos()) {
            long g = b.localAt(a.trueAt(t));
            List<Interval> linear = new ArrayList<>();
            for (Duration w : config.windows()) {
                linear.add(interval(sorted, xs, t, w.toNanos(), 0, minAtoB, minBtoA, g));
            }
            for (double rate : config.ratesPpbPerS()) {
                Interval narrowest = null;
                double down = -Double.MAX_VALUE;
                double up = Double.MAX_VALUE;
                for (Duration w : config.windows()) {
                    Interval i = interval(sorted, xs, t, w.toNanos(), rate * 1e-18, minAtoB, minBtoA, g);
                    if (i == null) {
                        infeasible.merge(key(rate, name(w)), 1L, Long::sum);
                        continue;
                    }
                    add(rate, name(w), i.middle(), i);
                    narrowest = narrowest == null || i.width() < narrowest.width() ? i : narrowest;
                    down = Math.max(down, i.down());
                    up = Math.min(up, i.up());
                }
                if (narrowest == null) {
                    continue;
                }
                add(rate, "narrowest", narrowest.middle(), narrowest);
                Interval all = new Interval(down, up);
                add(rate, "intersection", all.middle(), all);
                double consistent = all.middle();
                for (Interval l : linear) {
                    if (l == null || l.middle() < all.down() || l.middle() > all.up()) {
                        break;
                    }
                    consistent = l.middle();
                }
                add(rate, "consistent", consistent, all);
                add(rate, "agreeing", agreeing(linear, all), all);
            }
        }
    }

    /**
     * The estimate of the longest window whose linear estimate lies in the interval and differs from the next
     * shorter window's by at most {@link #AGREEMENT} times the difference between the two shortest windows' (their
     * noise, as a scale); the interval's middle if the shortest window has none.
     */
    private static double agreeing(List<Interval> linear, Interval all) {
        double estimate = all.middle();
        if (linear.size() < 2 || linear.get(0) == null || linear.get(1) == null) {
            return estimate;
        }
        double tolerance = AGREEMENT * Math.abs(linear.get(1).middle() - linear.get(0).middle());
        Interval previous = null;
        for (Interval l : linear) {
            if (l == null || l.middle() < all.down() || l.middle() > all.up()
                    || previous != null && Math.abs(l.middle() - previous.middle()) > tolerance) {
                break;
            }
            estimate = l.middle();
            previous = l;
        }
        return estimate;
    }

    private void add(double rate, String rule, double estimate, Interval i) {
        samples.computeIfAbsent(key(rate, rule), k -> new ArrayList<>()).add(new double[] {estimate, i.width(),
            i.down() <= 0 && i.up() >= 0 ? 1 : 0});
    }

    /**
     * The interval at t of the window [t − w, t], relative to the truth g: its points relaxed by ρ′W²/8 (ρ′ per ns,
     * W their span), the envelope at t widened by ρ′(t − u)(t − v)/2; null if the corridor is not ACCURATE.
     */
    private static Interval interval(List<Pair> pairs, long[] xs, long t, long w, double rhoPerNs, long minAtoB,
            long minBtoA, long g) {
        int from = lowerIndex(xs, t - w);
        int to = lowerIndex(xs, t + 1);
        if (to - from < 2) {
            return null;
        }
        long u = xs[from];
        long v = xs[to - 1];
        long allowance = (long) Math.ceil(rhoPerNs * (double) (v - u) * (v - u) / 8);
        Corridor c = new Corridor();
        for (int i = from; i < to; i++) {
            Pair p = pairs.get(i);
            c.add(p.aToB(), p.x(), p.aToB() ? p.y() - minAtoB + allowance : p.y() + minBtoA - allowance);
        }
        if (c.quality() != LinkQuality.ACCURATE) {
            return null;
        }
        double bend = rhoPerNs * (double) (t - u) * (t - v) / 2;
        Rational truth = Rational.of(g);
        return new Interval(relative(c.lowerAt(t), truth) - bend, relative(c.upperAt(t), truth) + bend);
    }

    private static double relative(Rational value, Rational truth) {
        return value.subtract(truth).toBigDecimal(MathContext.DECIMAL64).doubleValue();
    }

    private static int lowerIndex(long[] a, long v) {
        int i = Arrays.binarySearch(a, v);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && a[i - 1] == v) {
            i--;
        }
        return i;
    }

    private static String key(double rate, String rule) {
        return rate + " " + rule;
    }

    private static String name(Duration w) {
        return w.toSeconds() >= 60 && w.toSeconds() % 60 == 0 ? w.toMinutes() + "m" : w.toMillis() % 1000 == 0
                ? w.toSeconds() + "s" : w.toMillis() + "ms";
    }
}
