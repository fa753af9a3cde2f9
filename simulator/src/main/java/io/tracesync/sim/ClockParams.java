package io.tracesync.sim;

/**
 * The true clock of one node. Its frequency, relative to true time, is {@code 1 + f(t)·10⁻⁶} with
 * {@code f(t) = driftPpm + walk(t) + cycleAmplitudePpm·sin(2π·t/cyclePeriodNs + cyclePhase)} ppm, where walk is a
 * Gaussian random walk of {@code walkPpmPerSqrtS} ppm per √s (zero without wander). Magnitudes after the clock
 * precision study of docs/REFERENCES.md (§2, §4.1, §6): computer-grade crystals are off by about
 * 1 ppm and the tested boards by up to tens of ppm; the frequency moves with temperature (150 Hz/°C at 350 MHz,
 * 0.43 ppm/°C) and in a daily cycle of ±130 cycles at 350.8 MHz (±0.37 ppm); the Allan deviation converges, so
 * the random walk is small. A time daemon may discipline the clock ({@link ClockDiscipline}), and the clock may step
 * forward ({@link ClockJumps}).
 *
 * @param offsetNs local minus true time at the start of the simulation
 * @param driftPpm constant frequency offset
 * @param walkPpmPerSqrtS standard deviation of the random walk per √s, 0 for none
 * @param cycleAmplitudePpm amplitude of the slow (daily / temperature) cycle, 0 for none
 * @param cyclePeriodNs period of the cycle
 * @param cyclePhase phase of the cycle at the start, radians
 * @param resolutionNs timestamps are rounded down to a multiple of this
 * @param discipline the time daemon steering the clock, or {@link ClockDiscipline#NONE}
 * @param jumps steps of the clock, or {@link ClockJumps#NONE}
 */
public record ClockParams(long offsetNs, double driftPpm, double walkPpmPerSqrtS, double cycleAmplitudePpm,
                          long cyclePeriodNs, double cyclePhase, long resolutionNs, ClockDiscipline discipline,
                          ClockJumps jumps) {

    public ClockParams {
        if (resolutionNs < 1) {
            throw new IllegalArgumentException("resolution must be at least 1 ns");
        }
        if (cyclePeriodNs < 1) {
            throw new IllegalArgumentException("cycle period must be positive");
        }
        if (discipline == null || jumps == null) {
            throw new IllegalArgumentException("discipline and jumps are required (NONE for none)");
        }
    }

    /** A free-running clock that never steps. */
    public ClockParams(long offsetNs, double driftPpm, double walkPpmPerSqrtS, double cycleAmplitudePpm,
                       long cyclePeriodNs, double cyclePhase, long resolutionNs) {
        this(offsetNs, driftPpm, walkPpmPerSqrtS, cycleAmplitudePpm, cyclePeriodNs, cyclePhase, resolutionNs,
                ClockDiscipline.NONE, ClockJumps.NONE);
    }
}
