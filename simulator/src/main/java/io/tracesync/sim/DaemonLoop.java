package io.tracesync.sim;

/** A time daemon's control of one clock's frequency ({@link ClockDiscipline}), poll by poll and step by step. */
interface DaemonLoop {

    /**
     * A poll at true time {@code trueNs} that measured the clock's offset {@code thetaNs} (noise included); returns
     * the step of CLOCK_REALTIME the daemon makes instead of slewing, in ns (0: none).
     */
    long poll(long trueNs, double thetaNs);

    /** The adjustment in ppm over the next step of the clock: called once a step, in order, after its poll. */
    double adjustPpm();

    /** The slew rate in ppm that ended with the last step {@link #adjustPpm} answered for; 0: none ended. */
    double endedSlewPpm();

    /** The offset in ns the last poll set out to slew out; 0 for a daemon that does not slew offsets (ntpd's PLL). */
    double slewingNs();
}
