package io.tracesync.sim;

import java.util.Locale;

/**
 * A time daemon disciplining a node's clock: at every poll it measures the clock's offset θ from true time (local
 * minus true minus the clock's constant offset, less the offset CLOCK_REALTIME had at the start: the difference
 * between CLOCK_REALTIME, which the daemon steers, and the CLOCK_MONOTONIC that traces read, which runs at the same
 * slewed rate), with a Gaussian error of {@code noiseNs}, and sets its frequency adjustment — as ntpd's phase-locked
 * loop ({@link NtpdLoop}) or as chrony ({@link ChronyLoop}). The daemon starts locked: its frequency estimate cancels
 * the node's drift (a drift file), and CLOCK_REALTIME is {@code startOffsetNs} off true time (0: on time).
 *
 * @param daemon         which daemon's discipline
 * @param pollNs         poll (clock update) interval, 0 for an undisciplined clock
 * @param noiseNs        standard deviation of each offset measurement (network delay asymmetry, server noise)
 * @param maxSlewPpm     ntpd: largest adjustment of the frequency; chrony: largest rate of an offset's slew
 * @param corrTimeRatio  chrony's {@code corrtimeratio}: an average offset is slewed out over that many polls
 * @param startOffsetNs  CLOCK_REALTIME minus true time at the start
 * @param phaseNs        time of the first poll after the start, in [0, pollNs): each node's own
 */
public record ClockDiscipline(Daemon daemon, long pollNs, long noiseNs, double maxSlewPpm, double corrTimeRatio,
                              long startOffsetNs, long phaseNs) {

    /** The daemons simulated. */
    public enum Daemon {
        /** ntpd's phase-locked loop [RFC 5905, §11.3] ({@link NtpdLoop}). */
        NTPD(NTPD_MAX_SLEW_PPM),
        /** chrony: the frequency set from a regression at every update, offsets slewed ({@link ChronyLoop}). */
        CHRONY(CHRONY_MAX_SLEW_PPM);

        private final double defaultMaxSlewPpm;

        Daemon(double defaultMaxSlewPpm) {
            this.defaultMaxSlewPpm = defaultMaxSlewPpm;
        }

        /** ntpd's 500 ppm (its largest frequency adjustment); chrony.conf(5)'s {@code maxslewrate} default. */
        public double defaultMaxSlewPpm() {
            return defaultMaxSlewPpm;
        }

        /** A daemon as users write it: {@code ntpd} or {@code chrony}. */
        public static Daemon parse(String s) {
            try {
                return valueOf(s.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + s + "' is not a daemon (ntpd, chrony)");
            }
        }
    }

    /** ntpd's largest frequency adjustment [RFC 5905, Appendix A.5.5]. */
    public static final double NTPD_MAX_SLEW_PPM = 500;
    /** chrony.conf(5)'s default {@code maxslewrate}. */
    public static final double CHRONY_MAX_SLEW_PPM = 83_333.333;
    /** chrony.conf(5)'s default {@code corrtimeratio}. */
    public static final double DEFAULT_CORR_TIME_RATIO = 3;
    /** Measurement noise of a server on the LAN, µs: chrony's documentation puts LAN synchronisation at tens of µs. */
    public static final long LAN_NOISE_US = 20;
    public static final long LAN_NOISE_NS = LAN_NOISE_US * 1_000;
    /** No daemon: the clock runs free (the other values are those a daemon gets by default). */
    public static final ClockDiscipline NONE = ntpd(0, LAN_NOISE_NS, Daemon.NTPD.defaultMaxSlewPpm(), 0);
    /** ntpd's step threshold: a larger offset is stepped out of CLOCK_REALTIME, not slewed. */
    public static final long STEP_THRESHOLD_NS = 128_000_000;

    public ClockDiscipline {
        if (daemon == null) {
            throw new IllegalArgumentException("the daemon is required");
        }
        if (pollNs < 0 || noiseNs < 0) {
            throw new IllegalArgumentException("the daemon's poll interval and noise cannot be negative");
        }
        if (!(maxSlewPpm > 0)) {
            throw new IllegalArgumentException("the daemon's largest adjustment must be above 0 ppm: " + maxSlewPpm);
        }
        if (!(corrTimeRatio > 0)) {
            throw new IllegalArgumentException("the correction time ratio must be above 0: " + corrTimeRatio);
        }
        if (phaseNs < 0 || pollNs > 0 && phaseNs >= pollNs) {
            throw new IllegalArgumentException("the first poll must come within one poll interval: " + phaseNs);
        }
    }

    /** An ntpd-like daemon starting on time. */
    public static ClockDiscipline ntpd(long pollNs, long noiseNs, double maxSlewPpm, long phaseNs) {
        return new ClockDiscipline(Daemon.NTPD, pollNs, noiseNs, maxSlewPpm, DEFAULT_CORR_TIME_RATIO, 0, phaseNs);
    }

    /** A chrony-like daemon with chrony's defaults, CLOCK_REALTIME {@code startOffsetNs} off at the start. */
    public static ClockDiscipline chrony(long pollNs, long noiseNs, long startOffsetNs, long phaseNs) {
        return new ClockDiscipline(Daemon.CHRONY, pollNs, noiseNs, Daemon.CHRONY.defaultMaxSlewPpm(),
                DEFAULT_CORR_TIME_RATIO, startOffsetNs, phaseNs);
    }

    public boolean active() {
        return pollNs > 0;
    }

    /** The same daemon with its first poll at {@code phase} ns after the start. */
    public ClockDiscipline withPhase(long phase) {
        return new ClockDiscipline(daemon, pollNs, noiseNs, maxSlewPpm, corrTimeRatio, startOffsetNs, phase);
    }

    /**
     * The loop that carries out this discipline for a clock of natural frequency error {@code driftPpm} whose
     * frequency is constant over steps of {@code stepNs}.
     */
    DaemonLoop loop(double driftPpm, long stepNs) {
        return daemon == Daemon.NTPD ? new NtpdLoop(this, -driftPpm) : new ChronyLoop(this, -driftPpm, stepNs);
    }
}
