package io.tracesync.sim;

/**
 * A time daemon (ntpd, chrony) disciplining a node's clock, as a phase-locked loop: at every poll it measures the
 * clock's offset θ from true time (local minus true minus the clock's constant offset, the difference between
 * CLOCK_REALTIME, which the daemon steers, and the CLOCK_MONOTONIC that traces read), with a Gaussian error of
 * {@code noiseNs}; it then slews θ out over the next {@link #TIME_CONSTANT} polls, adjusting the frequency by
 * θ/(τ·poll), and corrects its frequency estimate by θ/(4τ²·poll) — a second-order loop like ntpd's PLL
 * [RFC 5905, §11.3], critically damped with these gains (offset and frequency errors shrink by 1 − 1/(2τ) per
 * poll). The adjustment is capped at
 * {@code maxSlewPpm} (ntpd: 500 ppm); an offset beyond {@link #STEP_THRESHOLD_NS} is stepped instead, which moves
 * CLOCK_REALTIME only. The daemon starts locked: its frequency estimate cancels the node's drift.
 * Frequency changes happen only at polls, so the disciplined clock relation has a kink at every poll.
 *
 * @param pollNs     poll interval, 0 for an undisciplined clock
 * @param noiseNs    standard deviation of each offset measurement (network delay asymmetry, server noise)
 * @param maxSlewPpm largest adjustment of the frequency
 * @param phaseNs    time of the first poll after the start, in [0, pollNs): each node's own
 */
public record ClockDiscipline(long pollNs, long noiseNs, double maxSlewPpm, long phaseNs) {

    /** No daemon: the clock runs free (the other values are those a daemon gets by default). */
    public static final ClockDiscipline NONE = new ClockDiscipline(0, 20_000, 500, 0);
    /** ntpd's step threshold: a larger offset is stepped, not slewed. */
    public static final long STEP_THRESHOLD_NS = 128_000_000;
    /** τ, in polls: the offset is slewed out over τ polls, the frequency estimate follows at 1/(4τ²) per poll. */
    public static final int TIME_CONSTANT = 4;

    public ClockDiscipline {
        if (pollNs < 0 || noiseNs < 0) {
            throw new IllegalArgumentException("the daemon's poll interval and noise cannot be negative");
        }
        if (!(maxSlewPpm > 0)) {
            throw new IllegalArgumentException("the daemon's largest adjustment must be above 0 ppm: " + maxSlewPpm);
        }
        if (phaseNs < 0 || pollNs > 0 && phaseNs >= pollNs) {
            throw new IllegalArgumentException("the first poll must come within one poll interval: " + phaseNs);
        }
    }

    public boolean active() {
        return pollNs > 0;
    }

    /** The same daemon with its first poll at {@code phase} ns after the start. */
    public ClockDiscipline withPhase(long phase) {
        return new ClockDiscipline(pollNs, noiseNs, maxSlewPpm, phase);
    }
}
