package io.tracesync.sim;

import java.util.SplittableRandom;

/**
 * A node's clock as the simulation runs: the frequency is constant over each step of {@code stepNs} true ns
 * (sampled from {@link ClockParams} at the step's start, with the adjustment of the node's time daemon if any), and
 * the local time at every step boundary is an integer, so the clock is exactly piecewise linear and strictly
 * increasing. A jump happens at a step's start, as a piece of one true ns. Steps, polls and jumps are drawn in
 * order, one step at a time, from the node's own random streams, whatever the queries: the truth does not depend on
 * the traffic. Every change of slope is reported as a breakpoint, which makes the ground-truth table (a clock
 * without wander, daemon or jumps has two), and every jump, poll and end of a slew as an event.
 */
final class DriftingClock {

    /** Receives the truth of one clock, in order. */
    interface Truth {
        void breakpoint(long trueNs, long localNs);

        /**
         * A jump (value: its size in ns), a poll of the daemon or the end of its slew (value: the change of its
         * adjustment, ppm), the start of a slew (value: the offset slewed out, ns).
         */
        void event(long trueNs, ClockEvent kind, double value);
    }

    private final ClockParams params;
    private final long start;
    private final long stepNs;
    private final SplittableRandom wander;
    private final SplittableRandom events;
    private final Truth sink;
    private final double jumpChance;
    private long step;
    private long stepTrue;
    private long stepLocal;
    private long perStep;
    /** The jump at this step's start (0: none): the clock reads stepLocal at stepTrue, stepLocal + jump 1 ns on. */
    private long jump;
    private double walkPpm;
    /** The time daemon (null: none) and its adjustment over the current step. */
    private final DaemonLoop daemon;
    private double adjustPpm;
    /**
     * Local minus true time the daemon steers to: the clock's offset less CLOCK_REALTIME's at the start, moved by
     * each step of CLOCK_REALTIME.
     */
    private long targetOffset;

    /**
     * The clock from true time {@code start}; {@code wander} is only drawn from when the params wander, {@code
     * events} only for the daemon's measurement errors and the jumps.
     */
    DriftingClock(ClockParams params, long start, long stepNs, SplittableRandom wander, SplittableRandom events,
                  Truth sink) {
        this.params = params;
        this.start = start;
        this.stepNs = stepNs;
        this.wander = wander;
        this.events = events;
        this.sink = sink;
        this.jumpChance = params.jumps().active() ? -Math.expm1(-(double) stepNs / params.jumps().meanIntervalNs())
                : 0;
        this.stepTrue = start;
        this.stepLocal = start + params.offsetNs();
        this.daemon = params.discipline().active() ? params.discipline().loop(params.driftPpm(), stepNs) : null;
        this.targetOffset = params.offsetNs() - params.discipline().startOffsetNs();
        // the daemon starts locked: its adjustment cancels the drift
        this.adjustPpm = daemon == null ? 0 : -params.driftPpm();
        adjust(pollsNow());
        this.perStep = localPerStep();
        sink.breakpoint(stepTrue, stepLocal);
    }

    /** Moves to step {@code target} (steps are counted from the start; never backwards). */
    void advanceTo(long target) {
        if (target < step) {
            throw new IllegalStateException("clock steps only go forward: at " + step + ", asked " + target);
        }
        while (step < target) {
            boolean kink = jump != 0;
            stepLocal += jump + perStep;
            stepTrue += stepNs;
            step++;
            jump = 0;
            if (params.walkPpmPerSqrtS() != 0) {
                walkPpm += params.walkPpmPerSqrtS() * Math.sqrt(stepNs / 1e9) * wander.nextGaussian();
            }
            if (jumpChance > 0 && events.nextDouble() < jumpChance) {
                ClockJumps j = params.jumps();
                jump = Math.round(j.minNs() * Math.pow((double) j.maxNs() / j.minNs(), events.nextDouble()));
                sink.event(stepTrue, ClockEvent.JUMP, jump);
            }
            adjust(pollsNow());
            long next = localPerStep();
            if (kink || jump != 0 || next != perStep) {
                sink.breakpoint(stepTrue, stepLocal);
            }
            if (jump != 0) {
                sink.breakpoint(stepTrue + 1, stepLocal + jump);
            }
            perStep = next;
        }
    }

    /** The timestamp recorded at true time {@code t}, which must lie in the current step. */
    long localAt(long t) {
        if (t < stepTrue || t >= stepTrue + stepNs) {
            throw new IllegalStateException("true time " + t + " is outside the current step [" + stepTrue + ", "
                    + (stepTrue + stepNs) + ")");
        }
        long end = stepLocal + jump + perStep;
        ClockPiece piece = jump == 0 ? new ClockPiece(stepTrue, stepLocal, stepTrue + stepNs, end)
                : t == stepTrue ? new ClockPiece(stepTrue, stepLocal, stepTrue + 1, stepLocal + jump)
                : new ClockPiece(stepTrue + 1, stepLocal + jump, stepTrue + stepNs, end);
        return ClockPiece.floorTo(piece.localFloor(t), params.resolutionNs());
    }

    /** Reports the last breakpoint: the end of the current step. */
    void finish() {
        sink.breakpoint(stepTrue + stepNs, stepLocal + jump + perStep);
    }

    private boolean pollsNow() {
        ClockDiscipline d = params.discipline();
        long since = stepTrue - start - d.phaseNs();
        return d.active() && since >= 0 && since % d.pollNs() == 0;
    }

    /** The daemon's adjustment over the step that starts now, after its poll if it polls now. */
    private void adjust(boolean polls) {
        if (daemon == null) {
            return;
        }
        if (polls) {
            poll();
        }
        double before = adjustPpm;
        adjustPpm = daemon.adjustPpm();
        if (polls) {
            sink.event(stepTrue, ClockEvent.POLL, adjustPpm - before);
        } else if (daemon.endedSlewPpm() != 0) {
            sink.event(stepTrue, ClockEvent.SLEW_END, adjustPpm - before);
        }
    }

    /**
     * One poll of the daemon: measure the offset of CLOCK_REALTIME from true time, noise included. A step of
     * CLOCK_REALTIME instead of a slew leaves the traced CLOCK_MONOTONIC as it is: the daemon steers to the new
     * offset from then on.
     */
    private void poll() {
        double theta = (stepLocal + jump - stepTrue - targetOffset) + params.discipline().noiseNs()
                * events.nextGaussian();
        targetOffset += daemon.poll(stepTrue, theta);
        if (daemon.slewingNs() != 0) {
            sink.event(stepTrue, ClockEvent.SLEW, daemon.slewingNs());
        }
    }

    /** Local ns per step, from the frequency at the start of the current step (at least 1: strictly increasing). */
    private long localPerStep() {
        double ppm = params.driftPpm() + walkPpm + adjustPpm;
        if (params.cycleAmplitudePpm() != 0) {
            double phase = 2 * Math.PI * ((double) (stepTrue - start) / params.cyclePeriodNs()) + params.cyclePhase();
            ppm += params.cycleAmplitudePpm() * Math.sin(phase);
        }
        return Math.max(1, stepNs + Math.round(stepNs * ppm * 1e-6));
    }
}
