package io.tracesync.sim;

/**
 * ntpd's discipline as a phase-locked loop [RFC 5905, §11.3]: at every poll the measured offset θ is slewed out over
 * the next {@link #TIME_CONSTANT} polls, adjusting the frequency by θ/(τ·poll), and the frequency estimate corrected by
 * θ/(4τ²·poll) — a second-order loop, critically damped with these gains (offset and frequency errors shrink by
 * 1 − 1/(2τ) per poll). The adjustment is capped at {@code maxSlewPpm} (ntpd: 500 ppm); an offset beyond
 * {@link ClockDiscipline#STEP_THRESHOLD_NS} is stepped instead. Frequency changes happen only at polls.
 */
final class NtpdLoop implements DaemonLoop {

    /** τ, in polls: the offset is slewed out over τ polls, the frequency estimate follows at 1/(4τ²) per poll. */
    static final int TIME_CONSTANT = 4;

    private final ClockDiscipline discipline;
    /** The estimate of the frequency error the loop cancels, and its adjustment over the current poll. */
    private double frequencyPpm;
    private double adjustPpm;

    NtpdLoop(ClockDiscipline discipline, double frequencyPpm) {
        this.discipline = discipline;
        this.frequencyPpm = frequencyPpm;
        this.adjustPpm = clampToSlew(frequencyPpm);
    }

    @Override
    public long poll(long trueNs, double thetaNs) {
        if (Math.abs(thetaNs) > ClockDiscipline.STEP_THRESHOLD_NS) {
            return Math.round(thetaNs);
        }
        double thetaPpm = thetaNs / discipline.pollNs() * 1e6;
        adjustPpm = clampToSlew(frequencyPpm - thetaPpm / TIME_CONSTANT);
        frequencyPpm -= thetaPpm / (4.0 * TIME_CONSTANT * TIME_CONSTANT);
        return 0;
    }

    @Override
    public double adjustPpm() {
        return adjustPpm;
    }

    @Override
    public double endedSlewPpm() {
        return 0;
    }

    @Override
    public double slewingNs() {
        return 0;
    }

    private double clampToSlew(double ppm) {
        double max = discipline.maxSlewPpm();
        return Math.max(-max, Math.min(max, ppm));
    }
}
