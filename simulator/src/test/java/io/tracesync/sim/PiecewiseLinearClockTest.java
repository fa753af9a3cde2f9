package io.tracesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The simulated clock, its ground-truth table and the exact inverse. */
class PiecewiseLinearClockTest {

    private static final long START = SimulationConfig.START_NS;

    /** A clock run for {@code steps} steps, its breakpoints rebuilt into the ground-truth clock. */
    record Run(ClockParams params, long stepNs, int steps, long seed) {

        PiecewiseLinearClock truth() {
            return simulate(new long[0]);
        }

        /**
         * Runs the clock, reading it at the given offsets from the start (taken modulo the run, in increasing
         * order); checks each reading against the rebuilt truth, which it returns.
         */
        PiecewiseLinearClock simulate(long[] offsets) {
            long[] times = new long[offsets.length];
            for (int k = 0; k < times.length; k++) {
                times[k] = START + Math.floorMod(offsets[k], steps * stepNs);
            }
            Arrays.sort(times);
            long[][] points = new long[2][2 * steps + 2];
            int[] n = {0};
            DriftingClock clock = new DriftingClock(params, START, stepNs, new SplittableRandom(seed),
                    new SplittableRandom(~seed), new DriftingClock.Truth() {
                        @Override
                        public void breakpoint(long trueNs, long localNs) {
                            points[0][n[0]] = trueNs;
                            points[1][n[0]++] = localNs;
                        }

                        @Override
                        public void event(long trueNs, ClockEvent kind, double value) {
                        }
                    });
            long[] readings = new long[times.length];
            for (int k = 0; k < times.length; k++) {
                clock.advanceTo((times[k] - START) / stepNs);
                readings[k] = clock.localAt(times[k]);
            }
            clock.advanceTo(steps - 1);
            clock.finish();
            PiecewiseLinearClock truth = new PiecewiseLinearClock(Arrays.copyOf(points[0], n[0]),
                    Arrays.copyOf(points[1], n[0]), params.resolutionNs());
            for (int k = 0; k < times.length; k++) {
                assertEquals(readings[k], truth.localAt(times[k]), "reading at " + times[k]);
            }
            return truth;
        }
    }

    @Provide
    Arbitrary<Run> runs() {
        Arbitrary<ClockParams> params = Combinators.combine(
                Arbitraries.longs().between(-7_200_000_000_000L, 7_200_000_000_000L),
                Arbitraries.doubles().between(-200, 200),
                Arbitraries.of(0.0, 0.002, 0.5),
                Arbitraries.of(0.0, 0.37, 50.0),
                Arbitraries.longs().between(1_000_000_000L, 86_400_000_000_000L),
                Arbitraries.of(1L, 7L, 1_000L, 1_000_000L),
                Arbitraries.of(ClockDiscipline.NONE, ClockDiscipline.ntpd(16_000_000_000L, 20_000, 500, 0),
                        ClockDiscipline.ntpd(64_000_000_000L, 1_000_000, 0.5, 3_000_000_000L),
                        ClockDiscipline.chrony(16_000_000_000L, 20_000, 0, 0),
                        ClockDiscipline.chrony(64_000_000_000L, 1_000_000, -50_000_000L, 3_000_000_000L)),
                Arbitraries.of(ClockJumps.NONE, new ClockJumps(2_000_000_000L, 1, 1_000_000_000L)))
                .as((offset, drift, walk, amp, period, res, daemon, jumps) -> new ClockParams(offset, drift, walk, amp,
                        period, 1.0, res, daemon, jumps));
        return Combinators.combine(params, Arbitraries.of(1_000_000L, 1_000_000_000L, 3_000_000_000L),
                Arbitraries.integers().between(1, 40), Arbitraries.longs())
                .as(Run::new);
    }

    @Property(tries = 300)
    void simulatedReadingsEqualTheGroundTruth(@ForAll("runs") Run run, @ForAll long a, @ForAll long b) {
        PiecewiseLinearClock truth = run.simulate(new long[] {a, b, 0, run.stepNs() - 1, run.stepNs()});
        assertEquals(START, truth.trueStart());
        assertEquals(START + run.steps() * run.stepNs(), truth.trueEnd());
    }

    @Property(tries = 300)
    void inverseRoundTrips(@ForAll("runs") Run run, @ForAll long t0, @ForAll long l0) {
        PiecewiseLinearClock c = run.truth();
        long t = c.trueStart() + Math.floorMod(t0, c.trueEnd() - c.trueStart());
        long reading = c.localAt(t);
        long first = c.trueAt(reading);
        assertTrue(first <= t);
        assertEquals(reading, c.localAt(first));
        if (first > c.trueStart()) {
            assertTrue(c.localAt(first - 1) < reading);
        }
        // any local value in range: the first true time reaching it
        long lo = c.localAt(c.trueStart());
        long hi = c.localAt(c.trueEnd());
        long l = lo + Math.floorMod(l0, hi - lo + 1);
        long u = c.trueAt(l);
        assertTrue(c.localAt(u) >= l);
        if (u > c.trueStart()) {
            assertTrue(c.localAt(u - 1) < l, "not the first");
        }
    }

    @Property(tries = 200)
    void readingsNeverDecrease(@ForAll("runs") Run run, @ForAll @LongRange(min = 0, max = 1_000_000_000L) long dt,
                               @ForAll long t0) {
        PiecewiseLinearClock c = run.truth();
        long span = c.trueEnd() - c.trueStart();
        long t = c.trueStart() + Math.floorMod(t0, span);
        long u = Math.min(c.trueEnd(), t + dt);
        assertTrue(c.localAt(t) <= c.localAt(u));
        assertEquals(0, Math.floorMod(c.localAt(t), c.resolution()));
    }

    @Test
    void linearClockHasTwoBreakpointsAndItsConfiguredDrift() {
        for (double ppm : new double[] {-200, -37.25, -1, 0, 1, 99.9999, 200}) {
            Run run = new Run(new ClockParams(3_600_000_000_000L, ppm, 0, 0, 1, 0, 1), 1_000_000_000L, 600, 1);
            PiecewiseLinearClock c = run.truth();
            // quantized to whole ns per step: within 0.5 ns per second
            assertEquals(ppm, c.meanDriftPpm(), 0.0005, "ppm " + ppm);
            assertEquals(START + 3_600_000_000_000L, c.localAt(START));
            long ten = START + 10_000_000_000L;
            assertEquals(START + 3_600_000_000_000L + 10_000_000_000L + Math.round(1e9 * ppm * 1e-6) * 10,
                    c.localAt(ten));
        }
    }

    @Test
    void wanderingClockStaysNearItsDrift() {
        // 0.37 ppm cycle and 0.002 ppm/sqrt(s) walk: over 10 minutes the mean rate stays within ~0.5 ppm
        Run run = new Run(new ClockParams(0, 20, 0.002, 0.37, 86_400_000_000_000L, 2.0, 1), 1_000_000_000L, 600, 9);
        PiecewiseLinearClock c = run.truth();
        assertEquals(20, c.meanDriftPpm(), 0.5);
    }

    @Test
    void outOfRangeQueriesAreRefused() {
        PiecewiseLinearClock c = new PiecewiseLinearClock(new long[] {0, 10}, new long[] {100, 120}, 1);
        assertThrows(IllegalArgumentException.class, () -> c.localAt(11));
        assertThrows(IllegalArgumentException.class, () -> c.trueAt(99));
        assertEquals(110, c.localAt(5));
        assertEquals(5, c.trueAt(110));
        assertEquals(6, c.trueAt(111));
        assertThrows(IllegalArgumentException.class,
                () -> new PiecewiseLinearClock(new long[] {0, 10}, new long[] {100, 100}, 1));
    }
}
