package io.tracesync.sim;

import java.util.SplittableRandom;

/**
 * A node's clock as the simulation runs: the frequency is constant over each step of {@code stepNs} true ns
 * (sampled from {@link ClockParams} at the step's start), and the local time at every step boundary is an integer,
 * so the clock is exactly piecewise linear and strictly increasing. Steps are drawn in order, one at a time, from
 * the node's own random stream, whatever the queries: the truth does not depend on the traffic. Every change of
 * slope is reported as a breakpoint, which makes the ground-truth table: a clock without wander has two.
 */
final class DriftingClock {

    /** Receives the breakpoints (true_ns, local_ns) of one clock, in order. */
    interface Breakpoints {
        void breakpoint(long trueNs, long localNs);
    }

    private final ClockParams params;
    private final long start;
    private final long stepNs;
    private final SplittableRandom wander;
    private final Breakpoints sink;
    private long step;
    private long stepTrue;
    private long stepLocal;
    private long perStep;
    private double walkPpm;

    /** The clock from true time {@code start}; {@code wander} is only drawn from when the params wander. */
    DriftingClock(ClockParams params, long start, long stepNs, SplittableRandom wander, Breakpoints sink) {
        this.params = params;
        this.start = start;
        this.stepNs = stepNs;
        this.wander = wander;
        this.sink = sink;
        this.stepTrue = start;
        this.stepLocal = start + params.offsetNs();
        this.perStep = localPerStep();
        sink.breakpoint(stepTrue, stepLocal);
    }

    /** Moves to step {@code target} (steps are counted from the start; never backwards). */
    void advanceTo(long target) {
        if (target < step) {
            throw new IllegalStateException("clock steps only go forward: at " + step + ", asked " + target);
        }
        while (step < target) {
            stepLocal += perStep;
            stepTrue += stepNs;
            step++;
            if (params.walkPpmPerSqrtS() != 0) {
                walkPpm += params.walkPpmPerSqrtS() * Math.sqrt(stepNs / 1e9) * wander.nextGaussian();
            }
            long next = localPerStep();
            if (next != perStep) {
                sink.breakpoint(stepTrue, stepLocal);
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
        long continuous = new ClockPiece(stepTrue, stepLocal, stepTrue + stepNs, stepLocal + perStep).localFloor(t);
        return ClockPiece.floorTo(continuous, params.resolutionNs());
    }

    /** Reports the last breakpoint: the end of the current step. */
    void finish() {
        sink.breakpoint(stepTrue + stepNs, stepLocal + perStep);
    }

    /** Local ns per step, from the frequency at the start of the current step (at least 1: strictly increasing). */
    private long localPerStep() {
        double ppm = params.driftPpm() + walkPpm;
        if (params.cycleAmplitudePpm() != 0) {
            double phase = 2 * Math.PI * ((double) (stepTrue - start) / params.cyclePeriodNs()) + params.cyclePhase();
            ppm += params.cycleAmplitudePpm() * Math.sin(phase);
        }
        return Math.max(1, stepNs + Math.round(stepNs * ppm * 1e-6));
    }
}
