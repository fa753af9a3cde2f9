package io.tracesync.cli;

import io.tracesync.app.DurationConverter;
import io.tracesync.app.ProgressBar;
import io.tracesync.sim.DelayModel;
import io.tracesync.sim.OutputDirectory;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationStats;
import io.tracesync.sim.Simulator;
import io.tracesync.sim.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code tracesync simulate}: the ground-truth cluster simulator; formats in docs/SIMULATOR.md. */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate a traced cluster whose true clocks are known.",
                "Nodes with drifting (optionally wandering) clocks exchange TCP segments over links with minimum "
                        + "and heavy-tailed delays, loss and retransmissions. Writes into --out: events/NODE.csv "
                        + "(each node's trace), pairs.csv (matched pairs, the input of sync-pairs), "
                        + "truth-pairs.csv, truth-clocks.csv and truth.json (the ground truth). The same options "
                        + "and seed give the same files."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:simulated", "1:could not write the output", "2:bad options"})
final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Output directory; created if missing, must be empty.")
    Path out;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "50",
            description = "Number of nodes, 2..100000 (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "random", converter = TopologyConverter.class,
            description = "random (connected, mean --degree), star (node 0 in the middle), racks (--group-size "
                    + "hosts per rack, all talk within the rack, each also to one host in another rack via the "
                    + "spine), cliques (complete groups of --group-size, bridged by single links) "
                    + "(default: ${DEFAULT-VALUE}).")
    Topology.Kind topology;

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

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Scenario scenario;
        try {
            scenario = Scenario.build(config());
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        long begin = System.nanoTime();
        SimulationStats stats;
        try (OutputDirectory files = new OutputDirectory(out, scenario);
             ProgressBar.Meter bar = ProgressBar.meter(duration.toNanos(), err, "simulating")) {
            stats = new Simulator(scenario).run(files, bar::update);
            files.finish(stats);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println("error: cannot write " + out + ": " + e.getMessage());
            return 1;
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "simulated %d nodes, %d links, %s: %,d events (%,d SEND incl. %,d retransmissions, "
                        + "%,d RECV), %,d pairs, %,d transmissions lost, %,d segments given up, in %.1f s -> %s%n",
                scenario.nodeCount(), scenario.linkCount(), duration.toString().substring(2).toLowerCase(Locale.ROOT),
                stats.events(), stats.sends, stats.retransmissions, stats.recvs, stats.recvs, stats.dropped,
                stats.abandoned, seconds, out);
        o.flush();
        return 0;
    }

    /** The configuration the options describe. */
    SimulationConfig config() {
        SimulationConfig c = new SimulationConfig();
        c.nodes = nodes;
        c.topology = topology;
        c.degree = degree;
        c.groupSize = groupSize;
        c.durationNs = duration.toNanos();
        c.seed = seed;
        c.maxOffsetNs = offset.toNanos();
        c.maxDriftPpm = driftPpm;
        c.wander = wander;
        c.wanderWalkPpmPerSqrtS = wanderWalk;
        c.wanderAmplitudePpm = wanderAmplitude;
        c.wanderPeriodNs = wanderPeriod.toNanos();
        c.stepNs = step.toNanos();
        c.resolutionNs = resolution.toNanos();
        c.loss = loss;
        c.rateMin = rate.min();
        c.rateMax = rate.max();
        c.minDelayNs = minDelay.toNanos();
        c.asymmetry = asymmetry;
        c.extraDelayNs = extraDelay.toNanos();
        c.distribution = distribution;
        c.interruptProbability = interrupts;
        c.interruptDelayNs = interruptDelay.toNanos();
        c.serviceTimeNs = serviceTime.toNanos();
        c.oneWayFraction = oneWay;
        c.rtoNs = rto.toNanos();
        c.maxRetries = retries;
        c.churn = churn;
        return c;
    }

    /** A share as users write it: {@code 1%} or {@code 0.01}. */
    static final class FractionConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.strip();
            boolean percent = v.endsWith("%");
            try {
                double d = Double.parseDouble(percent ? v.substring(0, v.length() - 1) : v);
                return percent ? d / 100 : d;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a share (e.g. 1% or 0.01)");
            }
        }
    }

    /** Messages per second per link: each link's rate is drawn log-uniformly in [min, max]. */
    record Rate(double min, double max) {
    }

    /** A rate {@code R} or a range {@code MIN..MAX}. */
    static final class RateConverter implements ITypeConverter<Rate> {
        @Override
        public Rate convert(String value) {
            String[] parts = value.strip().split("\\.\\.", -1);
            try {
                if (parts.length == 1) {
                    double r = Double.parseDouble(parts[0]);
                    return new Rate(r, r);
                }
                if (parts.length == 2) {
                    return new Rate(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]));
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' is not a rate (e.g. 10 or 0.1..1000)");
        }
    }

    static final class TopologyConverter implements ITypeConverter<Topology.Kind> {
        @Override
        public Topology.Kind convert(String value) {
            try {
                return Topology.Kind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class DistributionConverter implements ITypeConverter<DelayModel.Distribution> {
        @Override
        public DelayModel.Distribution convert(String value) {
            try {
                return DelayModel.Distribution.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
