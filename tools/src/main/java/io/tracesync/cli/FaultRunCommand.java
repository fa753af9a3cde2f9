package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.console.UserError;
import io.tracesync.environment.KafkaEnvironment;
import io.tracesync.environment.LocalKafka;
import io.tracesync.faults.Fault;
import io.tracesync.faults.FaultRun;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.testkit.InstanceProcess;
import io.tracesync.testkit.ServicesOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync fault-run}: several instances of the application under faults, checked against the truth. */
@Command(name = "fault-run",
        header = "Run several instances under seeded faults and check what they committed.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes a seeded simulated cluster's traces, with malformed records mixed in, at a steady rate "
                + "to a broker, runs --instances instances of one application (one standby, JVMs of their own) and, "
                + "round after round, once the application is replicated again (the group stable, every instance "
                + "RUNNING, every standby placed and caught up), inflicts a fault: an instance killed with SIGKILL, "
                + "the network task's instance killed, two killed at once, a state directory wiped, an instance "
                + "paused (SIGSTOP) past its session timeout, the broker killed and restarted on its logs. Prints how "
                + "long the application took to be replicated again and how long after each fault the next factor "
                + "was committed.",
                "At the end, from committed output only, checks that every node's factor is the offline answer, that "
                + "every malformed record is in the dead-letter topic exactly once, that no factor version was lost "
                + "or written twice, that the factor history holds only versions sync.factors committed, each node's "
                + "rising from its first, and that every committed factor holds the simulated true clocks. Exits "
                + "with 1 when a check fails.",
                "Without --bootstrap-servers it starts a broker of its own (the broker fault needs one); with a "
                + "cluster of yours the broker fault is left out. Needs a POSIX system (kill -STOP/-CONT)."})
public final class FaultRunCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "12",
            description = "Faults inflicted, one per round, each kind in turn in a seeded order (default: "
                    + "${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the cluster, the malformed records and the faults (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--faults", paramLabel = "FAULT[,FAULT...]", split = ",",
            converter = Converters.FaultConverter.class,
            description = "The faults to draw from (default: all): kill, kill-network-owner, kill-two, wipe-state, "
                    + "pause, broker-crash.")
    List<Fault> faults = new ArrayList<>(Arrays.asList(Fault.values()));

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "8",
            description = "Simulated nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "2m", converter = DurationConverter.class,
            description = "Simulated time of the cluster's traces (default: ${DEFAULT-VALUE}); they are written over "
                    + "about 20 s per round.")
    Duration duration;

    @Option(names = "--malformed", paramLabel = "N", defaultValue = "1000",
            description = "Malformed records mixed into the traces, of every kind in turn (default: "
                    + "${DEFAULT-VALUE}).")
    int malformed;

    @Option(names = "--instances", paramLabel = "N", defaultValue = "3",
            description = "Instances of the application (default: ${DEFAULT-VALUE}).")
    int instances;

    @Option(names = "--session-timeout", paramLabel = "DURATION", defaultValue = "6s",
            converter = DurationConverter.class,
            description = "session.timeout.ms of the instances: how soon the group notices a dead or paused one. "
                    + "Their transaction.timeout.ms is the same, their heartbeat.interval.ms a sixth of it "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration sessionTimeout;

    @Option(names = "--broker-down", paramLabel = "DURATION", defaultValue = "3s", converter = DurationConverter.class,
            description = "How long the broker stays down after it is killed (default: ${DEFAULT-VALUE}).")
    Duration brokerDown;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "3m", converter = DurationConverter.class,
            description = "The longest wait for anything: an instance to run, the application to be replicated, a "
                    + "factor after a fault, the last records to be consumed (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--instance-heap", paramLabel = "SIZE", defaultValue = "512m",
            description = "-Xmx of each instance (default: ${DEFAULT-VALUE}).")
    String heap;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "An application setting for every instance, e.g. topics.partitions=6 (repeatable).")
    Map<String, String> overrides = new HashMap<>();

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "fault-run",
            description = "Working directory: instance logs and state, the broker's files (default: ./fault-run).")
    Path work;

    @Mixin
    ServicesOptions services;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Files.createDirectories(work);
        SimulatedTraces cluster;
        try {
            cluster = SimulatedTraces.run(SimulationConfig.builder().nodes(nodes).durationNs(duration.toNanos())
                    .seed(seed).build());
        } catch (SimulationConfig.InvalidParameterException e) {
            throw new UserError("the run's cluster: " + e.getMessage() + " (--nodes, --duration)", e);
        }
        boolean ownBroker = services.bootstrap() == null;
        List<Fault> drawn = new ArrayList<>(faults);
        if (!ownBroker && drawn.remove(Fault.BROKER_CRASH)) {
            out.println("the broker fault is left out: the broker is not this run's");
        }
        FaultRun.Plan plan;
        try {
            plan = new FaultRun.Plan(rounds, seed, drawn, instances, sessionTimeout, brokerDown, timeout);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage() + " (--rounds, --faults, --instances)", e);
        }
        LocalKafka broker = ownBroker ? LocalKafka.startWithSeparateController(work.resolve("services/kafka")) : null;
        try (KafkaEnvironment env = KafkaEnvironment.start(work.resolve("services"),
                broker != null ? broker.bootstrapServers() : services.bootstrap(), services.registry())) {
            out.println("broker: " + (broker != null ? broker.description() : env.bootstrapServers())
                    + "; registry: " + env.registryUrl());
            String id = "fault-run-" + Long.toString(System.currentTimeMillis(), 36);
            FaultRun run = new FaultRun(FaultRun.settings(id, env.bootstrapServers(), env.registryUrl(), plan,
                    overrides), InstanceProcess.classPathCommand(heap), work.resolve(id), broker, out);
            FaultRun.Report r = run.run(cluster, malformed, plan);
            out.printf(Locale.ROOT, "%n%d faults; the slowest recovery: next factor %,d ms after the fault (for the "
                    + "broker: after it was back)%n", r.outcomes().size(), r.slowestMs());
            out.printf(Locale.ROOT, "%,d factor records committed, %,d dead letters for %,d malformed records%n",
                    r.factorRecords(), r.deadLetters(), r.malformed());
            if (r.passed()) {
                out.println("passed: the last factors are the offline answer, every malformed record is a dead "
                        + "letter once, no factor version lost or repeated, every factor holds the true clocks");
                return 0;
            }
            out.printf("FAILED: %d problems%n", r.problems().size());
            r.problems().stream().limit(50).forEach(p -> out.println("  " + p));
            return 1;
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }
}
