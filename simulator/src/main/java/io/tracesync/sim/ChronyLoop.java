package io.tracesync.sim;

/**
 * chrony's discipline, from its documentation (chrony.conf(5): {@code corrtimeratio}, {@code maxslewrate}) and the
 * description of its correction in its sources: at every clock update the frequency is <em>set</em> to cancel the
 * clock's frequency error as a linear regression over the recent measurements estimates it (with that estimate's
 * error), and the offset the regression gives for now is slewed out at a rate of its own on top, until it is gone.
 * The slew's duration is inversely proportional to the offset: an offset equal to the regression's standard deviation
 * σ takes {@code corrtimeratio} update intervals, so the rate is θ²/(corrtimeratio · interval · σ), at most
 * {@code maxslewrate} (83,333 ppm by default: a 50-ms start is slewed out in 0.6 s). So the clock's slope steps at
 * every update and again where a slew ends — a piecewise-linear relation between two disciplined hosts.
 * <p>
 * Simplified: the regression takes the last {@value #SAMPLES} updates' measurements (chrony chooses how many of up to
 * 64 by a test of the residuals), the interval is the poll (chrony adapts it between {@code minpoll} and
 * {@code maxpoll}), and a slew runs at one rate until the next update (chrony may recompute it between), spread
 * over whole steps of the simulation (at most one step longer than chrony's), so that it ends at a step's end.
 */
final class ChronyLoop implements DaemonLoop {

    /** How many of the latest measurements the regression takes. */
    static final int SAMPLES = 8;
    /** Fewer measurements leave the frequency as it is (chrony's regression needs three). */
    private static final int MIN_SAMPLES = 3;

    private final ClockDiscipline discipline;
    private final long stepNs;
    private final long[] times = new long[SAMPLES];
    private final double[] freeOffsets = new double[SAMPLES];
    private int samples;
    private int next;
    /** The frequency adjustment, ppm: the negated estimate of the clock's own frequency error. */
    private double frequencyPpm;
    /** The rate of the slew under way, ppm (negative: the clock is ahead), and for how many more steps. */
    private double slewPpm;
    private long slewSteps;
    private double endedSlewPpm;
    /** The offset the last poll set out to slew, ns. */
    private double slewingNs;
    /** How far the daemon's adjustments have moved the clock since the start, ns (its own bookkeeping). */
    private double appliedNs;

    ChronyLoop(ClockDiscipline discipline, double frequencyPpm, long stepNs) {
        this.discipline = discipline;
        this.frequencyPpm = frequencyPpm;
        this.stepNs = stepNs;
    }

    @Override
    public long poll(long trueNs, double thetaNs) {
        // the offset the clock would have without any adjustment: its free run against true time, with noise
        times[next] = trueNs;
        freeOffsets[next] = thetaNs - appliedNs;
        next = (next + 1) % SAMPLES;
        samples = Math.min(samples + 1, SAMPLES);
        double freeNow = freeOffsets[(next + SAMPLES - 1) % SAMPLES];
        double sigma = discipline.noiseNs();
        if (samples >= MIN_SAMPLES) {
            double[] fit = regression(trueNs);
            frequencyPpm = -fit[1] * 1e-3;
            freeNow = fit[0];
            sigma = fit[2];
        }
        // the offset now, to slew out: the whole of it, as the regression puts it
        double offsetNs = freeNow + appliedNs;
        slewingNs = offsetNs;
        double rate = Math.min(discipline.maxSlewPpm(), offsetNs * offsetNs
                / (discipline.corrTimeRatio() * discipline.pollNs() * Math.max(1, sigma)) * 1e6);
        slewSteps = rate == 0 ? 0 : (long) Math.ceil(Math.abs(offsetNs) / (rate * 1e-6 * stepNs));
        slewPpm = slewSteps == 0 ? 0 : -offsetNs / ((double) slewSteps * stepNs) * 1e6;
        return 0;
    }

    @Override
    public double adjustPpm() {
        endedSlewPpm = 0;
        if (slewSteps == 0 && slewPpm != 0) {
            endedSlewPpm = slewPpm;
            slewPpm = 0;
        }
        slewSteps = Math.max(0, slewSteps - 1);
        double adjust = frequencyPpm + slewPpm;
        appliedNs += adjust * 1e-6 * stepNs;
        return adjust;
    }

    @Override
    public double endedSlewPpm() {
        return endedSlewPpm;
    }

    @Override
    public double slewingNs() {
        return slewingNs;
    }

    /**
     * Least squares over the samples held: the free offset at {@code nowNs} (ns), its slope (ns per s) and the
     * residuals' standard deviation (ns).
     */
    private double[] regression(long nowNs) {
        double meanT = 0;
        double meanU = 0;
        for (int i = 0; i < samples; i++) {
            meanT += (times[i] - nowNs) * 1e-9;
            meanU += freeOffsets[i];
        }
        meanT /= samples;
        meanU /= samples;
        double stt = 0;
        double stu = 0;
        for (int i = 0; i < samples; i++) {
            double dt = (times[i] - nowNs) * 1e-9 - meanT;
            stt += dt * dt;
            stu += dt * (freeOffsets[i] - meanU);
        }
        double slope = stu / stt;
        double atNow = meanU - slope * meanT;
        double squares = 0;
        for (int i = 0; i < samples; i++) {
            double r = freeOffsets[i] - (atNow + slope * (times[i] - nowNs) * 1e-9);
            squares += r * r;
        }
        return new double[] {atNow, slope, Math.sqrt(squares / (samples - 2))};
    }
}
