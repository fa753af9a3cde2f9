package io.tracesync.sim;

/**
 * Everything a simulation run depends on; with the same values (seed included) the output is identical. The
 * defaults are those of {@code tracesync simulate}. Magnitudes follow the clock and network study
 * (the clock precision study, docs/REFERENCES.md): drifts of ppm to tens of ppm (§2, §5), a slow daily cycle of
 * ±0.37 ppm (§6), one-way delays of tens of µs on a LAN, "most packets take the same, close to minimal, time,
 * while a few packets may be delayed significantly" (§7), and rare large delays where interrupts were disabled
 * (§4.2, §8).
 */
public final class SimulationConfig {

    /** True time at which the simulation starts, in ns since the Unix epoch (2023-11-14T22:13:20Z). */
    public static final long START_NS = 1_700_000_000_000_000_000L;

    public int nodes = 50;
    public ClusterLayout.Kind topology = ClusterLayout.Kind.RANDOM;
    /** Mean degree of the random topology. */
    public double degree = 4;
    /** Hosts per rack, nodes per clique. */
    public int groupSize = 8;
    public long durationNs = 600_000_000_000L;
    public long seed = 1;

    /** Offsets are uniform in [−maxOffsetNs, maxOffsetNs]. */
    public long maxOffsetNs = 3_600_000_000_000L;
    /** Drift magnitudes are uniform in [min(1, max), max] ppm, with a random sign. */
    public double maxDriftPpm = 100;
    /** Frequency wander: random walk and slow cycle (amplitude, period; random phase per node). */
    public boolean wander;
    public double wanderWalkPpmPerSqrtS = 0.002;
    public double wanderAmplitudePpm = 0.37;
    public long wanderPeriodNs = 86_400_000_000_000L;
    /** A time daemon on every node (each with its own poll phase), or none. */
    public ClockDiscipline discipline = ClockDiscipline.NONE;
    /** Jumps of every node's clock, or none. */
    public ClockJumps jumps = ClockJumps.NONE;
    /** The frequency is constant over steps of this many true ns. */
    public long stepNs = 1_000_000_000L;
    public long resolutionNs = 1;

    /** Probability that one transmission is lost. */
    public double loss = 0.01;
    /** New messages per second per link, log-uniform in [rateMin, rateMax]. */
    public double rateMin = 10;
    public double rateMax = 10;
    /** Minimum one-way delay through one switch; each direction of each link gets it × hops/2 × (1 ± asymmetry). */
    public long minDelayNs = 50_000;
    public double asymmetry = 0.2;
    /** Mean of the extra delay above the minimum. */
    public long extraDelayNs = 10_000;
    public DelayModel.Distribution distribution = DelayModel.Distribution.LOGNORMAL;
    /** Probability that a delivery is also held up by an interrupt, and the mean of that (exponential) delay. */
    public double interruptProbability = 0.001;
    public long interruptDelayNs = 1_000_000;

    /** Mean (exponential) time a server takes to answer a request. */
    public long serviceTimeNs = 200_000;
    /** Fraction of links whose traffic goes one way only (the rest are request/response). */
    public double oneWayFraction = 0.1;
    /** Retransmission timeout of the first retry (doubling after each), and how many retries before giving up. */
    public long rtoNs = 200_000_000L;
    public int maxRetries = 5;
    /** Fraction of nodes that join after the start or leave before the end. */
    public double churn = 0;

    /** Checks every value; the message names the option of {@code tracesync simulate}. */
    public void validate() {
        check(nodes >= 2 && nodes <= 100_000, "--nodes must be in 2..100000: " + nodes);
        check(topology != null, "--topology is required");
        check(degree >= 1 && Double.isFinite(degree), "--degree must be at least 1: " + degree);
        check(groupSize >= 2, "--group-size must be at least 2: " + groupSize);
        check(durationNs > 0 && durationNs <= 366 * 86_400_000_000_000L, "--duration must be in (0, 366 days]");
        check(maxOffsetNs >= 0 && maxOffsetNs <= 366 * 86_400_000_000_000L, "--offset must be in [0, 366 days]");
        check(maxDriftPpm >= 0 && maxDriftPpm <= 10_000, "--drift-ppm must be in [0, 10000]: " + maxDriftPpm);
        check(wanderWalkPpmPerSqrtS >= 0 && wanderWalkPpmPerSqrtS <= 10,
                "--wander-walk must be in [0, 10] ppm/sqrt(s): " + wanderWalkPpmPerSqrtS);
        check(wanderAmplitudePpm >= 0 && wanderAmplitudePpm <= 1000,
                "--wander-amplitude must be in [0, 1000] ppm: " + wanderAmplitudePpm);
        check(wanderPeriodNs > 0, "--wander-period must be positive");
        check(stepNs >= 1_000_000 && stepNs <= 3_600_000_000_000L, "--step must be in [1ms, 1h]");
        check(resolutionNs >= 1 && resolutionNs <= 1_000_000_000, "--resolution must be in [1ns, 1s]");
        check(discipline != null && jumps != null, "discipline and jumps are required (NONE for none)");
        check(!discipline.active() || discipline.pollNs() >= 16_000_000_000L
                && discipline.pollNs() <= 131_072_000_000_000L && discipline.pollNs() % stepNs == 0,
                "--ntp-poll must be in [16s, 36h] and a multiple of --step");
        check(discipline.noiseNs() <= 1_000_000_000, "--ntp-noise must be in [0, 1s]");
        check(discipline.maxSlewPpm() <= 100_000, "--ntp-max-slew must be in (0, 100000] ppm");
        check(!jumps.active() || jumps.meanIntervalNs() >= stepNs, "--jumps-every must be at least --step");
        check(jumps.maxNs() <= 3_600_000_000_000L, "--jump-size must be in [1ns, 1h]");
        check(loss >= 0 && loss < 1, "--loss must be in [0, 100%): " + loss);
        check(rateMin > 0 && rateMin <= rateMax && rateMax <= 1_000_000,
                "--rate must be positive, at most 1000000/s, MIN..MAX with MIN <= MAX");
        check(minDelayNs >= 0 && minDelayNs <= 10_000_000_000L, "--min-delay must be in [0, 10s]");
        check(asymmetry >= 0 && asymmetry < 1, "--asymmetry must be in [0, 1): " + asymmetry);
        check(extraDelayNs >= 0 && extraDelayNs <= 10_000_000_000L, "--extra-delay must be in [0, 10s]");
        check(distribution != null, "--delay-distribution is required");
        check(interruptProbability >= 0 && interruptProbability <= 1,
                "--interrupts must be in [0, 100%]: " + interruptProbability);
        check(interruptDelayNs >= 0 && interruptDelayNs <= 10_000_000_000L, "--interrupt-delay must be in [0, 10s]");
        check(serviceTimeNs >= 0 && serviceTimeNs <= 10_000_000_000L, "--service-time must be in [0, 10s]");
        check(oneWayFraction >= 0 && oneWayFraction <= 1, "--one-way must be in [0, 100%]: " + oneWayFraction);
        check(rtoNs >= 1_000 && rtoNs <= 600_000_000_000L, "--rto must be in [1us, 10m]");
        check(maxRetries >= 0 && maxRetries <= 20, "--retries must be in 0..20: " + maxRetries);
        check(churn >= 0 && churn <= 1, "--churn must be in [0, 100%]: " + churn);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
