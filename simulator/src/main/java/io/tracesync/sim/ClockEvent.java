package io.tracesync.sim;

/** What changed a clock other than its wander, in {@code truth-clock-events.csv}. */
public enum ClockEvent {
    /** The clock stepped forward ({@link ClockJumps}); the value is the step in ns. */
    JUMP,
    /** The time daemon polled (updated the clock, {@link ClockDiscipline}); the value is the change of its adjustment in ppm. */
    POLL,
    /** A slew of the daemon's ended ({@link ChronyLoop}); the value is the change of its adjustment in ppm. */
    SLEW_END,
    /**
     * The daemon set out to slew an offset out at a poll ({@link ChronyLoop}); the value is that offset in ns, the
     * most its clock departs from a smooth one by that slew (docs/LINK-CORE.md, "Offset excursions").
     */
    SLEW
}
