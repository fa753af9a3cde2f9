package io.tracesync.sim;

/**
 * Everything a simulation run depends on; with the same values (seed included) the output is identical. The
 * defaults are those of {@code tracesync simulate}. Magnitudes follow the clock and network study
 * (the clock precision study, docs/REFERENCES.md): drifts of ppm to tens of ppm (§2, §5), a slow daily cycle of
 * ±0.37 ppm (§6), one-way delays of tens of µs on a LAN, "most packets take the same, close to minimal, time,
 * while a few packets may be delayed significantly" (§7), and rare large delays where interrupts were disabled
 * (§4.2, §8). Immutable, every value checked; made by a {@link Builder}.
 *
 * @param nodes How many nodes.
 * @param topology How the nodes are linked (ClusterLayout).
 * @param degree Mean degree of the random topology.
 * @param groupSize Hosts per rack, nodes per clique.
 * @param durationNs Simulated true time.
 * @param seed The seed of every random choice.
 * @param maxOffsetNs Offsets are uniform in [−maxOffsetNs, maxOffsetNs].
 * @param maxDriftPpm Drift magnitudes are uniform in [min(1, max), max] ppm, with a random sign.
 * @param wander Frequency wander: a random walk and a slow cycle (random phase per node), as the next three say.
 * @param wanderWalkPpmPerSqrtS The random walk's step, ppm per √s.
 * @param wanderAmplitudePpm The slow cycle's amplitude, ppm.
 * @param wanderPeriodNs The slow cycle's period.
 * @param discipline A time daemon on every node (each with its own poll phase), or none.
 * @param jumps Jumps of every node's clock, or none.
 * @param stepNs The frequency is constant over steps of this many true ns.
 * @param resolutionNs The clocks' resolution.
 * @param loss Probability that one transmission is lost.
 * @param rateMin New messages per second per link are log-uniform in [rateMin, rateMax].
 * @param rateMax See rateMin.
 * @param minDelayNs Minimum one-way delay through one switch; each direction of each link gets it × hops/2 × (1 ±
 *     asymmetry).
 * @param asymmetry See minDelayNs.
 * @param extraDelayNs Mean of the extra delay above the minimum.
 * @param distribution The extra delay's distribution.
 * @param interruptProbability Probability that a delivery is also held up by an interrupt.
 * @param interruptDelayNs The mean of that (exponential) delay.
 * @param serviceTimeNs Mean (exponential) time a server takes to answer a request.
 * @param oneWayFraction Fraction of links whose traffic goes one way only (the rest are request/response).
 * @param rtoNs Retransmission timeout of the first retry (doubling after each).
 * @param maxRetries How many retries before giving up.
 * @param churn Fraction of nodes that join after the start or leave before the end.
 */
public record SimulationConfig(
        int nodes,
        ClusterLayout.Kind topology,
        double degree,
        int groupSize,
        long durationNs,
        long seed,
        long maxOffsetNs,
        double maxDriftPpm,
        boolean wander,
        double wanderWalkPpmPerSqrtS,
        double wanderAmplitudePpm,
        long wanderPeriodNs,
        ClockDiscipline discipline,
        ClockJumps jumps,
        long stepNs,
        long resolutionNs,
        double loss,
        double rateMin,
        double rateMax,
        long minDelayNs,
        double asymmetry,
        long extraDelayNs,
        DelayModel.Distribution distribution,
        double interruptProbability,
        long interruptDelayNs,
        long serviceTimeNs,
        double oneWayFraction,
        long rtoNs,
        int maxRetries,
        double churn) {

    /** True time at which the simulation starts, in ns since the Unix epoch (2023-11-14T22:13:20Z). */
    public static final long START_NS = 1_700_000_000_000_000_000L;
    private static final long DAY_NS = 86_400_000_000_000L;

    /** A value out of its range: which parameter (its name in the {@link Builder}), and why. */
    public static final class InvalidParameterException extends IllegalArgumentException {
        private final String parameter;

        InvalidParameterException(String parameter, String message) {
            super(parameter + " " + message);
            this.parameter = parameter;
        }

        /** The parameter's name, as the {@link Builder}'s setter is named. */
        public String parameter() {
            return parameter;
        }
    }

    /** Checks every value: a value out of its range is an {@link InvalidParameterException} naming it. */
    public SimulationConfig {
        check(nodes >= 2 && nodes <= 100_000, "nodes", "must be in 2..100000: " + nodes);
        check(topology != null, "topology", "is required");
        check(degree >= 1 && Double.isFinite(degree), "degree", "must be at least 1: " + degree);
        check(groupSize >= 2, "groupSize", "must be at least 2: " + groupSize);
        check(durationNs > 0 && durationNs <= 366 * DAY_NS, "durationNs", "must be in (0, 366 days]");
        check(maxOffsetNs >= 0 && maxOffsetNs <= 366 * DAY_NS, "maxOffsetNs", "must be in [0, 366 days]");
        check(maxDriftPpm >= 0 && maxDriftPpm <= 10_000, "maxDriftPpm",
                "must be in [0, 10000] ppm: " + maxDriftPpm);
        check(wanderWalkPpmPerSqrtS >= 0 && wanderWalkPpmPerSqrtS <= 10, "wanderWalkPpmPerSqrtS",
                "must be in [0, 10] ppm/sqrt(s): " + wanderWalkPpmPerSqrtS);
        check(wanderAmplitudePpm >= 0 && wanderAmplitudePpm <= 1000, "wanderAmplitudePpm",
                "must be in [0, 1000] ppm: " + wanderAmplitudePpm);
        check(wanderPeriodNs > 0, "wanderPeriodNs", "must be positive");
        check(stepNs >= 1_000_000 && stepNs <= 3_600_000_000_000L, "stepNs", "must be in [1ms, 1h]");
        check(resolutionNs >= 1 && resolutionNs <= 1_000_000_000, "resolutionNs", "must be in [1ns, 1s]");
        check(loss >= 0 && loss < 1, "loss", "must be in [0, 100%): " + loss);
        check(rateMin > 0 && rateMin <= rateMax, "rateMin..rateMax", "must be positive, MIN at most MAX: " + rateMin
                + ".." + rateMax);
        check(rateMax <= 1_000_000, "rateMax", "must be at most 1000000/s: " + rateMax);
        check(minDelayNs >= 0 && minDelayNs <= 10_000_000_000L, "minDelayNs", "must be in [0, 10s]");
        check(asymmetry >= 0 && asymmetry < 1, "asymmetry", "must be in [0, 1): " + asymmetry);
        check(extraDelayNs >= 0 && extraDelayNs <= 10_000_000_000L, "extraDelayNs", "must be in [0, 10s]");
        check(distribution != null, "distribution", "is required");
        check(interruptProbability >= 0 && interruptProbability <= 1, "interruptProbability",
                "must be in [0, 100%]: " + interruptProbability);
        check(interruptDelayNs >= 0 && interruptDelayNs <= 10_000_000_000L, "interruptDelayNs",
                "must be in [0, 10s]");
        check(serviceTimeNs >= 0 && serviceTimeNs <= 10_000_000_000L, "serviceTimeNs", "must be in [0, 10s]");
        check(oneWayFraction >= 0 && oneWayFraction <= 1, "oneWayFraction",
                "must be in [0, 100%]: " + oneWayFraction);
        check(rtoNs >= 1_000 && rtoNs <= 600_000_000_000L, "rtoNs", "must be in [1us, 10m]");
        check(maxRetries >= 0 && maxRetries <= 20, "maxRetries", "must be in 0..20: " + maxRetries);
        check(churn >= 0 && churn <= 1, "churn", "must be in [0, 100%]: " + churn);
        check(discipline != null, "discipline", "is required (ClockDiscipline.NONE for none)");
        check(jumps != null, "jumps", "is required (ClockJumps.NONE for none)");
        check(!discipline.active() || discipline.pollNs() >= 16_000_000_000L
                && discipline.pollNs() <= 131_072_000_000_000L && discipline.pollNs() % stepNs == 0,
                "discipline.pollNs", "must be in [16s, 36h] and a multiple of stepNs");
        check(discipline.noiseNs() <= 1_000_000_000, "discipline.noiseNs", "must be in [0, 1s]");
        check(discipline.maxSlewPpm() <= 100_000, "discipline.maxSlewPpm", "must be in (0, 100000] ppm");
        check(discipline.corrTimeRatio() <= 1_000, "discipline.corrTimeRatio", "must be in (0, 1000]");
        check(Math.abs(discipline.startOffsetNs()) <= 10_000_000_000L, "discipline.startOffsetNs",
                "must be in [-10s, 10s]");
        check(!jumps.active() || jumps.meanIntervalNs() >= stepNs, "jumps.meanIntervalNs",
                "must be at least stepNs");
        check(jumps.maxNs() <= 3_600_000_000_000L, "jumps.maxNs", "must be in [1ns, 1h]");
    }

    private static void check(boolean ok, String parameter, String message) {
        if (!ok) {
            throw new InvalidParameterException(parameter, message);
        }
    }

    /** The defaults, to change: {@code SimulationConfig.builder().nodes(12).seed(7).build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these values, to change some. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.nodes = nodes;
        b.topology = topology;
        b.degree = degree;
        b.groupSize = groupSize;
        b.durationNs = durationNs;
        b.seed = seed;
        b.maxOffsetNs = maxOffsetNs;
        b.maxDriftPpm = maxDriftPpm;
        b.wander = wander;
        b.wanderWalkPpmPerSqrtS = wanderWalkPpmPerSqrtS;
        b.wanderAmplitudePpm = wanderAmplitudePpm;
        b.wanderPeriodNs = wanderPeriodNs;
        b.discipline = discipline;
        b.jumps = jumps;
        b.stepNs = stepNs;
        b.resolutionNs = resolutionNs;
        b.loss = loss;
        b.rateMin = rateMin;
        b.rateMax = rateMax;
        b.minDelayNs = minDelayNs;
        b.asymmetry = asymmetry;
        b.extraDelayNs = extraDelayNs;
        b.distribution = distribution;
        b.interruptProbability = interruptProbability;
        b.interruptDelayNs = interruptDelayNs;
        b.serviceTimeNs = serviceTimeNs;
        b.oneWayFraction = oneWayFraction;
        b.rtoNs = rtoNs;
        b.maxRetries = maxRetries;
        b.churn = churn;
        return b;
    }

    /** The values of a {@link SimulationConfig}, each with the default of {@code tracesync simulate} until set. */
    public static final class Builder {

        private int nodes = 50;
        private ClusterLayout.Kind topology = ClusterLayout.Kind.RANDOM;
        private double degree = 4;
        private int groupSize = 8;
        private long durationNs = 600_000_000_000L;
        private long seed = 1;
        private long maxOffsetNs = 3_600_000_000_000L;
        private double maxDriftPpm = 100;
        private boolean wander = false;
        private double wanderWalkPpmPerSqrtS = 0.002;
        private double wanderAmplitudePpm = 0.37;
        private long wanderPeriodNs = 86_400_000_000_000L;
        private ClockDiscipline discipline = ClockDiscipline.NONE;
        private ClockJumps jumps = ClockJumps.NONE;
        private long stepNs = 1_000_000_000L;
        private long resolutionNs = 1;
        private double loss = 0.01;
        private double rateMin = 10;
        private double rateMax = 10;
        private long minDelayNs = 50_000;
        private double asymmetry = 0.2;
        private long extraDelayNs = 10_000;
        private DelayModel.Distribution distribution = DelayModel.Distribution.LOGNORMAL;
        private double interruptProbability = 0.001;
        private long interruptDelayNs = 1_000_000;
        private long serviceTimeNs = 200_000;
        private double oneWayFraction = 0.1;
        private long rtoNs = 200_000_000L;
        private int maxRetries = 5;
        private double churn = 0;

        private Builder() {
        }

        public Builder nodes(int value) {
            this.nodes = value;
            return this;
        }

        public Builder topology(ClusterLayout.Kind value) {
            this.topology = value;
            return this;
        }

        public Builder degree(double value) {
            this.degree = value;
            return this;
        }

        public Builder groupSize(int value) {
            this.groupSize = value;
            return this;
        }

        public Builder durationNs(long value) {
            this.durationNs = value;
            return this;
        }

        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        public Builder maxOffsetNs(long value) {
            this.maxOffsetNs = value;
            return this;
        }

        public Builder maxDriftPpm(double value) {
            this.maxDriftPpm = value;
            return this;
        }

        public Builder wander(boolean value) {
            this.wander = value;
            return this;
        }

        public Builder wanderWalkPpmPerSqrtS(double value) {
            this.wanderWalkPpmPerSqrtS = value;
            return this;
        }

        public Builder wanderAmplitudePpm(double value) {
            this.wanderAmplitudePpm = value;
            return this;
        }

        public Builder wanderPeriodNs(long value) {
            this.wanderPeriodNs = value;
            return this;
        }

        public Builder discipline(ClockDiscipline value) {
            this.discipline = value;
            return this;
        }

        public Builder jumps(ClockJumps value) {
            this.jumps = value;
            return this;
        }

        public Builder stepNs(long value) {
            this.stepNs = value;
            return this;
        }

        public Builder resolutionNs(long value) {
            this.resolutionNs = value;
            return this;
        }

        public Builder loss(double value) {
            this.loss = value;
            return this;
        }

        public Builder rateMin(double value) {
            this.rateMin = value;
            return this;
        }

        public Builder rateMax(double value) {
            this.rateMax = value;
            return this;
        }

        public Builder minDelayNs(long value) {
            this.minDelayNs = value;
            return this;
        }

        public Builder asymmetry(double value) {
            this.asymmetry = value;
            return this;
        }

        public Builder extraDelayNs(long value) {
            this.extraDelayNs = value;
            return this;
        }

        public Builder distribution(DelayModel.Distribution value) {
            this.distribution = value;
            return this;
        }

        public Builder interruptProbability(double value) {
            this.interruptProbability = value;
            return this;
        }

        public Builder interruptDelayNs(long value) {
            this.interruptDelayNs = value;
            return this;
        }

        public Builder serviceTimeNs(long value) {
            this.serviceTimeNs = value;
            return this;
        }

        public Builder oneWayFraction(double value) {
            this.oneWayFraction = value;
            return this;
        }

        public Builder rtoNs(long value) {
            this.rtoNs = value;
            return this;
        }

        public Builder maxRetries(int value) {
            this.maxRetries = value;
            return this;
        }

        public Builder churn(double value) {
            this.churn = value;
            return this;
        }

        /** The configuration; an {@link InvalidParameterException} names the first value out of its range. */
        public SimulationConfig build() {
            return new SimulationConfig(nodes, topology, degree, groupSize, durationNs, seed, maxOffsetNs,
                    maxDriftPpm, wander, wanderWalkPpmPerSqrtS, wanderAmplitudePpm, wanderPeriodNs, discipline, jumps,
                    stepNs, resolutionNs, loss, rateMin, rateMax, minDelayNs, asymmetry, extraDelayNs, distribution,
                    interruptProbability, interruptDelayNs, serviceTimeNs, oneWayFraction, rtoNs, maxRetries, churn);
        }
    }
}
