package io.tracesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulated clock under a time daemon and with jumps: what {@link ClockDiscipline} and {@link ClockJumps} say. */
class DriftingClockTest {

    private static final long START = SimulationConfig.START_NS;
    private static final long SECOND = 1_000_000_000L;
    private static final long OFFSET = 3_600 * SECOND;

    /** One run of a clock for {@code seconds} one-second steps: its truth and what changed it. */
    private record Run(PiecewiseLinearClock truth, List<long[]> breakpoints, List<Double> polls, List<Long> pollTimes,
                       List<long[]> jumps, List<Long> slewEnds, List<Double> slews) {

        static Run of(ClockParams params, int seconds, long seed) {
            List<long[]> breakpoints = new ArrayList<>();
            List<Double> polls = new ArrayList<>();
            List<Long> pollTimes = new ArrayList<>();
            List<long[]> jumps = new ArrayList<>();
            List<Long> slewEnds = new ArrayList<>();
            List<Double> slews = new ArrayList<>();
            DriftingClock clock = new DriftingClock(params, START, SECOND, new SplittableRandom(seed),
                    new SplittableRandom(seed + 1), new DriftingClock.Truth() {
                        @Override
                        public void breakpoint(long trueNs, long localNs) {
                            breakpoints.add(new long[] {trueNs, localNs});
                        }

                        @Override
                        public void event(long trueNs, ClockEvent kind, double value) {
                            switch (kind) {
                                case POLL -> {
                                    polls.add(value);
                                    pollTimes.add(trueNs);
                                }
                                case SLEW_END -> slewEnds.add(trueNs);
                                case SLEW -> slews.add(value);
                                case JUMP -> jumps.add(new long[] {trueNs, (long) value});
                            }
                        }
                    });
            clock.advanceTo(seconds - 1);
            clock.finish();
            PiecewiseLinearClock truth = new PiecewiseLinearClock(
                    breakpoints.stream().mapToLong(b -> b[0]).toArray(),
                    breakpoints.stream().mapToLong(b -> b[1]).toArray(), 1);
            return new Run(truth, breakpoints, polls, pollTimes, jumps, slewEnds, slews);
        }

        /** Local minus true time minus the clock's constant offset, at true time t. */
        long offsetAt(long t) {
            return truth.localAt(t) - t - OFFSET;
        }
    }

    private static ClockParams clock(double driftPpm, double amplitudePpm, ClockDiscipline daemon, ClockJumps jumps) {
        return new ClockParams(OFFSET, driftPpm, amplitudePpm == 0 ? 0 : 0.002, amplitudePpm, 1_200 * SECOND, 0.5, 1,
                daemon, jumps);
    }

    @Test
    void aDisciplinedClockStaysNearTrueTimeThroughATemperatureCycle() {
        // 80 ppm off, ±2 ppm over 20 minutes (a strong air-conditioning cycle), ntpd polling every 64 s
        ClockDiscipline daemon = ClockDiscipline.ntpd(64 * SECOND, 20_000, 500, 5 * SECOND);
        Run run = Run.of(clock(80, 2, daemon, ClockJumps.NONE), 7_200, 3);
        assertTrue(run.slews().isEmpty(), "ntpd's loop slews no offsets");
        long worst = 0;
        for (long t = START; t < START + 7_200 * SECOND; t += SECOND) {
            worst = Math.max(worst, Math.abs(run.offsetAt(t)));
        }
        // free-running it would be 576 ms off after two hours; locked, within a fraction of a millisecond
        assertTrue(worst < 500_000, "worst offset " + worst + " ns");
        assertEquals(0, run.truth().meanDriftPpm(), 0.07);
        for (int k = 0; k < run.pollTimes().size(); k++) {
            assertEquals(START + 5 * SECOND + k * 64 * SECOND, run.pollTimes().get(k));
        }
        assertEquals(113, run.pollTimes().size(), "polls at 5 s + k·64 s, k = 0..112, within two hours");
    }

    @Test
    void withoutWanderTheFrequencyChangesOnlyAtPollsAndWithinTheSlewLimit() {
        ClockDiscipline daemon = ClockDiscipline.ntpd(16 * SECOND, 1_000_000, 0.5, 0);
        Run run = Run.of(clock(0.2, 0, daemon, ClockJumps.NONE), 600, 5);
        List<Long> polls = run.pollTimes();
        List<long[]> b = run.breakpoints();
        for (int i = 1; i < b.size() - 1; i++) {
            assertTrue(polls.contains(b.get(i)[0]), "breakpoint between polls at " + (b.get(i)[0] - START));
        }
        for (int i = 1; i < b.size(); i++) {
            double rate = (double) (b.get(i)[1] - b.get(i - 1)[1]) / (b.get(i)[0] - b.get(i - 1)[0]);
            double ppm = (rate - 1) * 1e6;
            // the natural 0.2 ppm, adjusted by at most 0.5 ppm (ns rounding per one-second step: 0.0005 ppm)
            assertTrue(ppm >= -0.3 - 0.001 && ppm <= 0.7 + 0.001, "rate " + ppm + " ppm");
        }
        assertTrue(b.size() > 10, "a measurement noise of 1 ms moves the adjustment at every poll");
    }

    @Test
    void jumpsStepTheClockForwardAtOnce() {
        Run run = Run.of(clock(20, 0, ClockDiscipline.NONE, new ClockJumps(60 * SECOND, 1_000_000, SECOND)), 1_800,
                11);
        assertTrue(run.jumps().size() >= 10 && run.jumps().size() <= 60, run.jumps().size() + " jumps");
        long ppmPerSecond = 20_000;
        for (long[] jump : run.jumps()) {
            long t = jump[0];
            assertTrue(jump[1] >= 1_000_000 && jump[1] <= SECOND, "size " + jump[1]);
            assertEquals(jump[1], run.truth().localAt(t + 1) - run.truth().localAt(t));
            assertEquals(0, (t - START) % SECOND, "a jump starts a step");
            long before = run.truth().localAt(t) - run.truth().localAt(t - SECOND);
            assertEquals(SECOND + ppmPerSecond, before, 1);
        }
        long total = run.jumps().stream().mapToLong(j -> j[1]).sum();
        long end = START + 1_800 * SECOND;
        assertEquals(total + 1_800 * ppmPerSecond, run.offsetAt(end), 2);
    }

    @Test
    void aDaemonStepsALargeOffsetOutOfRealtimeAndLeavesTheTracedClockAsItIs() {
        ClockDiscipline daemon = ClockDiscipline.ntpd(64 * SECOND, 20_000, 500, 0);
        Run run = Run.of(clock(50, 0, daemon, new ClockJumps(600 * SECOND, 300_000_000, 300_000_000)), 3_600, 2);
        assertTrue(!run.jumps().isEmpty(), "at least one jump in an hour");
        long total = run.jumps().stream().mapToLong(j -> j[1]).sum();
        // the 300 ms steps stay in the traced clock: no slew at up to 500 ppm pulls them back
        assertEquals(total, run.offsetAt(START + 3_600 * SECOND), 1_000_000);
        assertTrue(run.polls().stream().allMatch(p -> Math.abs(p) < 1), "adjustments " + run.polls());
    }

    @Test
    void chronySetsTheFrequencyAtEveryUpdateAndTheClockBendsOnlyThereAndWhereASlewEnds() {
        ClockDiscipline daemon = ClockDiscipline.chrony(64 * SECOND, 20_000, 0, 7 * SECOND);
        Run run = Run.of(clock(30, 0, daemon, ClockJumps.NONE), 3_600, 4);
        List<long[]> b = run.breakpoints();
        for (int i = 1; i < b.size() - 1; i++) {
            long t = b.get(i)[0];
            assertTrue(run.pollTimes().contains(t) || run.slewEnds().contains(t), "a bend at " + (t - START));
        }
        for (int k = 0; k < run.pollTimes().size(); k++) {
            assertEquals(START + 7 * SECOND + k * 64 * SECOND, run.pollTimes().get(k));
        }
        // 20 µs of noise moves the frequency by tenths of a ppm at every update, never by a ppm
        double[] steps = run.polls().stream().mapToDouble(Math::abs).sorted().toArray();
        assertTrue(steps[steps.length / 2] > 0.02 && steps[steps.length - 1] < 1, "steps " + run.polls());
        long worst = 0;
        for (long t = START; t < START + 3_600 * SECOND; t += SECOND) {
            worst = Math.max(worst, Math.abs(run.offsetAt(t)));
        }
        // 30 ppm free would be 108 ms off after the hour
        assertTrue(worst < 100_000, "worst offset " + worst + " ns");
        assertEquals(0, run.truth().meanDriftPpm(), 0.01);
    }

    @Test
    void chronySlewsALargeStartOffsetOutAtUpToItsLargestRate() {
        // CLOCK_REALTIME 50 ms behind at the start: the daemon slews it, and with it the traced clock, 50 ms forward
        long start = -50_000_000;
        Run fast = Run.of(clock(30, 2, ClockDiscipline.chrony(64 * SECOND, 20_000, start, 0), ClockJumps.NONE),
                600, 4);
        double first = fast.polls().get(0);
        assertTrue(first >= 49_000 && first <= ClockDiscipline.Daemon.CHRONY.defaultMaxSlewPpm(),
                "the first slew " + first + " ppm");
        assertEquals(START + SECOND, fast.slewEnds().get(0), "83,333 ppm slews 50 ms out within the first second");
        // the offset it set out to slew is the start's, the measurement's noise aside (ns; negative: the clock behind)
        assertEquals(start, fast.slews().get(0), 100_000);
        for (long t = START + SECOND; t < START + 600 * SECOND; t += SECOND) {
            assertEquals(-start, fast.offsetAt(t), 1_000_000, "at " + (t - START));
        }
        // at 500 ppm (chrony's maxslewrate set as ntpd's limit) the same offset takes 100 s, never faster; the update
        // at 64 s finds the rest and slews it on at the same rate
        Run slow = Run.of(clock(30, 0, new ClockDiscipline(ClockDiscipline.Daemon.CHRONY, 64 * SECOND, 20_000, 500,
                ClockDiscipline.DEFAULT_CORR_TIME_RATIO, start, 0), ClockJumps.NONE), 600, 4);
        assertEquals(-start / 2, slow.offsetAt(START + 50 * SECOND), 50_000);
        long end = slow.slewEnds().get(0);
        assertTrue(end >= START + 100 * SECOND && end <= START + 102 * SECOND, "the slew ended at " + (end - START));
        assertEquals(-start, slow.offsetAt(end), 50_000);
        for (int i = 1; i < slow.breakpoints().size(); i++) {
            long[] a = slow.breakpoints().get(i - 1);
            long[] b = slow.breakpoints().get(i);
            double ppm = ((double) (b[1] - a[1]) / (b[0] - a[0]) - 1) * 1e6;
            assertTrue(ppm <= 500.001, ppm + " ppm");
        }
    }
}
