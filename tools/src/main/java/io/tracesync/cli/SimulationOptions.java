package io.tracesync.cli;

import io.tracesync.cli.Converters.DaemonConverter;
import io.tracesync.cli.Converters.DistributionConverter;
import io.tracesync.cli.Converters.DurationRange;
import io.tracesync.cli.Converters.DurationRangeConverter;
import io.tracesync.cli.Converters.FractionConverter;
import io.tracesync.cli.Converters.LayoutConverter;
import io.tracesync.cli.Converters.Rate;
import io.tracesync.cli.Converters.RateConverter;
import io.tracesync.console.DurationConverter;
import io.tracesync.sim.ClockDiscipline;
import io.tracesync.sim.ClockJumps;
import io.tracesync.sim.ClusterLayout;
import io.tracesync.sim.DelayModel;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.streams.config.Durations;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** The simulated cluster's options ({@link SimulationConfig}); docs/SIMULATOR.md explains each. */
final class SimulationOptions {

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "50",
            description = "Number of nodes, 2..100000 (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "random", converter = LayoutConverter.class,
            description = "random (connected, mean --degree), star (node 0 in the middle), racks (--group-size "
                    + "hosts per rack, all talk within the rack, each also to one host in another rack via the "
                    + "spine), cliques (complete groups of --group-size, bridged by single links) "
                    + "(default: ${DEFAULT-VALUE}).")
    ClusterLayout.Kind topology;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "4",
            description = "Mean degree of the random topology (default: ${DEFAULT-VALUE}).")
    double degree;

    @Option(names = "--group-size", paramLabel = "K", defaultValue = "8",
            description = "Hosts per rack or nodes per clique (default: ${DEFAULT-VALUE}).")
    int groupSize;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "10m", converter = DurationConverter.class,
            description = "Simulated (true) time, e.g. 90s, 10m, 2h (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--offset", paramLabel = "DURATION", defaultValue = "1h", converter = DurationConverter.class,
            description = "Largest clock offset; each node's is uniform in [-offset, +offset] "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration offset;

    @Option(names = "--drift-ppm", paramLabel = "PPM", defaultValue = "100",
            description = "Largest clock drift; each node's is +-[1, PPM] ppm, uniform (default: ${DEFAULT-VALUE}).")
    double driftPpm;

    @Option(names = "--wander", description = "Let the clock frequencies wander: a random walk plus a slow cycle.")
    boolean wander;

    @Option(names = "--wander-walk", paramLabel = "PPM", defaultValue = "0.002",
            description = "Random walk of the frequency, ppm per sqrt(s) (default: ${DEFAULT-VALUE}).")
    double wanderWalk;

    @Option(names = "--wander-amplitude", paramLabel = "PPM", defaultValue = "0.37",
            description = "Amplitude of the slow cycle, random phase per node (default: ${DEFAULT-VALUE}, the "
                    + "study's daily cycle).")
    double wanderAmplitude;

    @Option(names = "--wander-period", paramLabel = "DURATION", defaultValue = "24h",
            converter = DurationConverter.class,
            description = "Period of the slow cycle, e.g. 24h (daily) or 20m (air conditioning) "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration wanderPeriod;

    @Option(names = "--ntp-poll", paramLabel = "DURATION", defaultValue = "none", converter = DurationConverter.class,
            description = "Discipline every clock by a time daemon polling (updating the clock) this often, e.g. 64s "
                    + "to 1024s, each node at its own phase; none: free-running clocks (default: ${DEFAULT-VALUE}).")
    Duration ntpPoll;

    @Option(names = "--ntp-daemon", paramLabel = "DAEMON", defaultValue = "ntpd",
            converter = Converters.DaemonConverter.class,
            description = "The daemon's discipline: ntpd (a phase-locked loop) or chrony (the frequency set from a "
                    + "regression at every update, offsets slewed on top) (default: ${DEFAULT-VALUE}).")
    ClockDiscipline.Daemon ntpDaemon;

    @Option(names = "--ntp-noise", paramLabel = "DURATION", defaultValue = ClockDiscipline.LAN_NOISE_US + "us",
            converter = DurationConverter.class,
            description = "Standard deviation of the daemon's offset measurements (default: ${DEFAULT-VALUE}, a "
                    + "server on the LAN; across a WAN about 1ms).")
    Duration ntpNoise;

    @Option(names = "--ntp-max-slew", paramLabel = "PPM",
            description = "ntpd: largest frequency adjustment (default: " + ClockDiscipline.NTPD_MAX_SLEW_PPM
                    + ", ntpd's); chrony: largest rate of an offset's slew (default: "
                    + ClockDiscipline.CHRONY_MAX_SLEW_PPM + ", chrony's maxslewrate).")
    Double ntpMaxSlew;

    @Option(names = "--ntp-corrtimeratio", paramLabel = "RATIO",
            defaultValue = "" + ClockDiscipline.DEFAULT_CORR_TIME_RATIO,
            description = "chrony's corrtimeratio: an offset of the usual size is slewed out over RATIO updates, a "
                    + "larger one faster (default: ${DEFAULT-VALUE}, chrony's).")
    double ntpCorrTimeRatio;

    @Option(names = "--ntp-start-offset", paramLabel = "DURATION", defaultValue = "0",
            converter = DurationConverter.class,
            description = "How far each node's CLOCK_REALTIME is off true time at the start, e.g. 50ms after a boot "
                    + "(default: ${DEFAULT-VALUE}); ntpd steps beyond 128ms, chrony slews.")
    Duration ntpStartOffset;

    @Option(names = "--jumps-every", paramLabel = "DURATION", defaultValue = "none",
            converter = DurationConverter.class,
            description = "Mean time between forward steps of each clock (a virtual machine resumed after a pause), "
                    + "at random; none: no steps (default: ${DEFAULT-VALUE}).")
    Duration jumpsEvery;

    @Option(names = "--jump-size", paramLabel = "MIN..MAX", defaultValue = "1ms..1s",
            converter = DurationRangeConverter.class,
            description = "Size of each step, log-uniform in MIN..MAX, or one DURATION (default: ${DEFAULT-VALUE}).")
    DurationRange jumpSize;

    @Option(names = "--step", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "Clock frequencies are constant over steps of this length (default: ${DEFAULT-VALUE}).")
    Duration step;

    @Option(names = "--resolution", paramLabel = "DURATION", defaultValue = "1ns", converter = DurationConverter.class,
            description = "Timestamp resolution: times are rounded down to it, e.g. 1ns, 1us "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration resolution;

    @Option(names = "--loss", paramLabel = "PCT", defaultValue = "1%", converter = FractionConverter.class,
            description = "Probability that a transmission is lost, e.g. 1%% or 0.01 (default: ${DEFAULT-VALUE}).")
    double loss;

    @Option(names = "--rate", paramLabel = "R[..MAX]", defaultValue = "10", converter = RateConverter.class,
            description = "New messages per second per link (requests, or one-way segments); MIN..MAX draws each "
                    + "link's rate log-uniformly, e.g. 0.1..1000 (default: ${DEFAULT-VALUE}).")
    Rate rate;

    @Option(names = "--min-delay", paramLabel = "DURATION", defaultValue = "50us", converter = DurationConverter.class,
            description = "Minimum one-way delay through one switch; twice that across the spine or a bridge "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration minDelay;

    @Option(names = "--asymmetry", paramLabel = "PCT", defaultValue = "20%", converter = FractionConverter.class,
            description = "Each direction's minimum delay is the above times 1 +- up to this "
                    + "(default: ${DEFAULT-VALUE}).")
    double asymmetry;

    @Option(names = "--extra-delay", paramLabel = "DURATION", defaultValue = "10us",
            converter = DurationConverter.class,
            description = "Mean of the random delay above the minimum (default: ${DEFAULT-VALUE}).")
    Duration extraDelay;

    @Option(names = "--delay-distribution", paramLabel = "DIST", defaultValue = "lognormal",
            converter = DistributionConverter.class,
            description = "Shape of that extra delay: exponential or lognormal (sigma 1) (default: ${DEFAULT-VALUE}).")
    DelayModel.Distribution distribution;

    @Option(names = "--interrupts", paramLabel = "PCT", defaultValue = "0.1%", converter = FractionConverter.class,
            description = "Share of deliveries held up by an interrupt (default: ${DEFAULT-VALUE}).")
    double interrupts;

    @Option(names = "--interrupt-delay", paramLabel = "DURATION", defaultValue = "1ms",
            converter = DurationConverter.class,
            description = "Mean (exponential) of such a hold-up (default: ${DEFAULT-VALUE}).")
    Duration interruptDelay;

    @Option(names = "--service-time", paramLabel = "DURATION", defaultValue = "200us",
            converter = DurationConverter.class,
            description = "Mean (exponential) time a server takes to answer (default: ${DEFAULT-VALUE}).")
    Duration serviceTime;

    @Option(names = "--one-way", paramLabel = "PCT", defaultValue = "10%", converter = FractionConverter.class,
            description = "Share of links with one-way traffic; the others are request/response "
                    + "(default: ${DEFAULT-VALUE}).")
    double oneWay;

    @Option(names = "--rto", paramLabel = "DURATION", defaultValue = "200ms", converter = DurationConverter.class,
            description = "Retransmission timeout of the first retry, doubled after each (default: ${DEFAULT-VALUE}).")
    Duration rto;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "5",
            description = "Retransmissions before a segment is given up (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--churn", paramLabel = "PCT", defaultValue = "0%", converter = FractionConverter.class,
            description = "Share of nodes that join during the first half or leave during the second half, or "
                    + "both (default: ${DEFAULT-VALUE}).")
    double churn;

    /** Each parameter of {@link SimulationConfig.Builder} by the option that sets it, for messages. */
    private static final Map<String, String> FLAGS = Map.ofEntries(Map.entry("nodes", "--nodes"),
            Map.entry("topology", "--topology"), Map.entry("degree", "--degree"),
            Map.entry("groupSize", "--group-size"), Map.entry("durationNs", "--duration"),
            Map.entry("maxOffsetNs", "--offset"), Map.entry("maxDriftPpm", "--drift-ppm"),
            Map.entry("wanderWalkPpmPerSqrtS", "--wander-walk"), Map.entry("wanderAmplitudePpm", "--wander-amplitude"),
            Map.entry("wanderPeriodNs", "--wander-period"), Map.entry("discipline.pollNs", "--ntp-poll"),
            Map.entry("discipline.noiseNs", "--ntp-noise"), Map.entry("discipline.maxSlewPpm", "--ntp-max-slew"),
            Map.entry("discipline.corrTimeRatio", "--ntp-corrtimeratio"),
            Map.entry("discipline.startOffsetNs", "--ntp-start-offset"),
            Map.entry("jumps.meanIntervalNs", "--jumps-every"), Map.entry("jumps.maxNs", "--jump-size"),
            Map.entry("stepNs", "--step"), Map.entry("resolutionNs", "--resolution"), Map.entry("loss", "--loss"),
            Map.entry("rateMin..rateMax", "--rate"), Map.entry("rateMax", "--rate"),
            Map.entry("minDelayNs", "--min-delay"), Map.entry("asymmetry", "--asymmetry"),
            Map.entry("extraDelayNs", "--extra-delay"), Map.entry("distribution", "--delay-distribution"),
            Map.entry("interruptProbability", "--interrupts"), Map.entry("interruptDelayNs", "--interrupt-delay"),
            Map.entry("serviceTimeNs", "--service-time"), Map.entry("oneWayFraction", "--one-way"),
            Map.entry("rtoNs", "--rto"), Map.entry("maxRetries", "--retries"), Map.entry("churn", "--churn"));

    /** The configuration the options describe; a value out of range is refused naming its option. */
    SimulationConfig config() {
        double maxSlew = ntpMaxSlew == null ? ntpDaemon.defaultMaxSlewPpm() : ntpMaxSlew;
        if (!(maxSlew > 0)) {
            throw new IllegalArgumentException("--ntp-max-slew must be above 0 ppm: " + maxSlew);
        }
        if (!(ntpCorrTimeRatio > 0)) {
            throw new IllegalArgumentException("--ntp-corrtimeratio must be above 0: " + ntpCorrTimeRatio);
        }
        if (jumpSize.min().toNanos() < 1 || jumpSize.min().compareTo(jumpSize.max()) > 0) {
            throw new IllegalArgumentException("--jump-size must be MIN..MAX with 1ns <= MIN <= MAX: "
                    + Durations.format(jumpSize.min().toNanos()) + ".." + Durations.format(jumpSize.max().toNanos()));
        }
        SimulationConfig.Builder c = SimulationConfig.builder().nodes(nodes).topology(topology).degree(degree)
                .groupSize(groupSize).durationNs(duration.toNanos()).seed(seed).maxOffsetNs(offset.toNanos())
                .maxDriftPpm(driftPpm).wander(wander).wanderWalkPpmPerSqrtS(wanderWalk)
                .wanderAmplitudePpm(wanderAmplitude).wanderPeriodNs(wanderPeriod.toNanos())
                .discipline(new ClockDiscipline(ntpDaemon, ntpPoll.toNanos(), ntpNoise.toNanos(), maxSlew,
                        ntpCorrTimeRatio, ntpStartOffset.toNanos(), 0))
                .jumps(new ClockJumps(jumpsEvery.toNanos(), jumpSize.min().toNanos(), jumpSize.max().toNanos()))
                .stepNs(step.toNanos()).resolutionNs(resolution.toNanos()).loss(loss).rateMin(rate.min())
                .rateMax(rate.max()).minDelayNs(minDelay.toNanos()).asymmetry(asymmetry)
                .extraDelayNs(extraDelay.toNanos()).distribution(distribution).interruptProbability(interrupts)
                .interruptDelayNs(interruptDelay.toNanos()).serviceTimeNs(serviceTime.toNanos())
                .oneWayFraction(oneWay).rtoNs(rto.toNanos()).maxRetries(retries).churn(churn);
        try {
            return c.build();
        } catch (SimulationConfig.InvalidParameterException e) {
            throw new IllegalArgumentException(inOptions(e.getMessage()), e);
        }
    }

    /** A message about the configuration's parameters, in the options' names (longest names first). */
    static String inOptions(String message) {
        String m = message;
        for (String parameter : FLAGS.keySet().stream().sorted(Comparator.comparingInt(String::length).reversed())
                .toList()) {
            m = m.replaceAll("(?<![\\w.-])" + Pattern.quote(parameter) + "(?![\\w.])",
                    Matcher.quoteReplacement(FLAGS.get(parameter)));
        }
        return m;
    }
}
