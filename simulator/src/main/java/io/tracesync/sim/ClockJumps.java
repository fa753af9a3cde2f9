package io.tracesync.sim;

/**
 * Steps of a node's clock: at moments of a Poisson process of mean interval {@code meanIntervalNs} the clock
 * steps forward by a size drawn log-uniformly in [{@code minNs}, {@code maxNs}], at once — as the clock of a
 * virtual machine that was paused and catches up when it resumes (the pause itself, during which the machine
 * records nothing, is not simulated: the node keeps recording). A step is a piece of one true ns in the ground
 * truth, so the clock stays continuous and strictly increasing there.
 *
 * @param meanIntervalNs mean time between steps, 0 for none
 * @param minNs          smallest step
 * @param maxNs          largest step
 */
public record ClockJumps(long meanIntervalNs, long minNs, long maxNs) {

    /** No jumps (the sizes are those jumps get by default). */
    public static final ClockJumps NONE = new ClockJumps(0, 1_000_000, 1_000_000_000);

    public ClockJumps {
        if (meanIntervalNs < 0) {
            throw new IllegalArgumentException("the mean time between jumps cannot be negative");
        }
        if (minNs < 1 || maxNs < minNs) {
            throw new IllegalArgumentException("jump sizes must be MIN..MAX with 1ns <= MIN <= MAX: " + minNs + ".."
                    + maxNs + " ns");
        }
    }

    public boolean active() {
        return meanIntervalNs > 0;
    }
}
