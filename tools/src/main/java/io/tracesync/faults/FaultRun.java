package io.tracesync.faults;

import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.environment.LocalKafka;
import io.tracesync.sim.MalformedRecords;
import io.tracesync.sim.MalformedRecords.Kind;
import io.tracesync.sim.MalformedRecords.Raw;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.testkit.InstanceProcess;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Several instances of one application under faults: a seeded simulated cluster, malformed records mixed into its
 * traces, written at a steady rate to a real broker; three instances (one standby), and at seeded moments a {@link
 * Fault} ({@link FaultInjector}) — an instance or two killed with SIGKILL (the network task's owner among them), a
 * state directory wiped, an instance paused past its session timeout, the broker killed and restarted on its logs —
 * each striking a whole application ({@link SettledApplication}). After each fault the time until the next factor
 * is committed is taken. At the end, from committed output only ({@link CommittedOutputChecks}): every node's
 * factor is the offline answer ({@code sync-pairs} on the true pairs), every malformed record is a dead letter
 * exactly once, every node's factor versions count up with no gap and no repeat (nothing lost or written twice),
 * and every committed factor holds the true clocks at its anchor.
 */
public final class FaultRun {

    /** What to run: rounds of faults drawn from {@code faults}, in a seeded order that takes each in turn. */
    public record Plan(int rounds, long seed, List<Fault> faults, int instances, Duration sessionTimeout,
            Duration brokerDown, Duration timeout) {

        public Plan {
            faults = List.copyOf(faults);
            if (rounds < 0 || faults.isEmpty() && rounds > 0) {
                throw new IllegalArgumentException("rounds " + rounds + " of faults " + faults);
            }
            if (instances < 2) {
                throw new IllegalArgumentException("a fault run needs at least 2 instances, not " + instances);
            }
        }
    }

    /**
     * One fault: what was done to whom, when (ms since the epoch; for the broker: its return), and ms from then to
     * the next factor; before it, ms until the instances were replicated again after the previous round.
     */
    public record Outcome(int round, Fault fault, String target, long atMs, long factorAfterMs, long replicatedMs) {
    }

    /** What the run found; {@code problems} is empty when every check held. */
    public record Report(List<Outcome> outcomes, int records, int malformed, int factorRecords, int deadLetters,
            List<String> problems) {

        public boolean passed() {
            return problems.isEmpty();
        }

        /** The slowest recovery, ms (0 without faults). */
        public long slowestMs() {
            return outcomes.stream().mapToLong(Outcome::factorAfterMs).max().orElse(0);
        }
    }

    /** How many records each round's traffic lasts on average: the rate follows from it. */
    private static final Duration TRAFFIC_PER_ROUND = Duration.ofSeconds(20);

    private final Map<String, String> config;
    private final Settings settings;
    private final List<String> javaCommand;
    private final Path work;
    private final LocalKafka broker;
    private final PrintWriter out;

    /**
     * @param config the application's settings ({@link #settings}), shared by the instances
     * @param javaCommand how to start {@code io.tracesync.app.ApplicationCommand} in a JVM of its own
     * @param broker the broker, when this process started it (the broker fault needs it), else null
     */
    public FaultRun(Map<String, String> config, List<String> javaCommand, Path work, LocalKafka broker,
            PrintWriter out) {
        this.config = Map.copyOf(config);
        this.settings = Settings.of(config);
        this.javaCommand = List.copyOf(javaCommand);
        this.work = work;
        this.broker = broker;
        this.out = out;
    }

    /**
     * The settings of a fault run's application: its own id and topics (the traces in one multiplexed topic under
     * {@code group.protocol=streams}, which reads no pattern), one standby, the plan's session timeout
     * (heartbeats a sixth of it: the survivors learn of a rebalance at their next heartbeat, so a dead instance is
     * noticed within the session timeout plus one heartbeat interval) and a transaction timeout as long (a dead
     * instance's open transaction aborted as soon; docs/DEPLOYMENT.md weighs it against a rebalance's length), and the
     * gates at 0 so that the last factors are exactly the offline answer; {@code overrides} last.
     */
    public static Map<String, String> settings(String id, String bootstrap, String registry, Plan plan,
            Map<String, String> overrides) {
        Map<String, String> m = new HashMap<>(Map.of(
                "bootstrap.servers", bootstrap,
                "schema.registry.url", registry,
                "application.id", id,
                TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG, id + ".",
                TracesyncConfig.TRACES_PATTERN_CONFIG, Pattern.quote(id) + "\\..+",
                TracesyncConfig.FACTORS_TOPIC_CONFIG, "sync.factors-" + id,
                TracesyncConfig.TREE_TOPIC_CONFIG, "sync.tree-" + id,
                TracesyncConfig.LINKS_TOPIC_CONFIG, "sync.links-" + id,
                TracesyncConfig.DLQ_TOPIC_CONFIG, "sync.dlq-" + id));
        long session = plan.sessionTimeout().toMillis();
        m.putAll(Map.of(
                "num.standby.replicas", "1",
                "session.timeout.ms", Long.toString(session),
                "heartbeat.interval.ms", Long.toString(Math.max(100, session / 6)),
                "producer.transaction.timeout.ms", Long.toString(Math.max(1000, session)),
                TracesyncConfig.FACTORS_MIN_CHANGE_CONFIG, "0",
                TracesyncConfig.LINKS_MIN_CHANGE_CONFIG, "0",
                TracesyncConfig.MATCHER_ROTATION_CONFIG, "10m"));
        if ("streams".equalsIgnoreCase(overrides.get("group.protocol"))) {
            m.put(TracesyncConfig.TRACES_TOPIC_CONFIG, id + ".traces");
        }
        m.putAll(overrides);
        return m;
    }

    /** Runs the plan on {@code cluster} with {@code malformed} malformed records mixed in. */
    public Report run(SimulatedTraces cluster, int malformed, Plan plan) throws Exception {
        String single = settings.get(TracesyncConfig.TRACES_TOPIC_CONFIG);
        String prefix = settings.get(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG);
        List<Raw> records = MalformedRecords.interleave(cluster, settings.serdeConfig(),
                node -> single.isEmpty() ? prefix + node : single, single.isEmpty(), malformed, plan.seed());
        Map<Kind, Long> expected = records.stream().filter(r -> r.kind() != null)
                .collect(Collectors.groupingBy(Raw::kind, () -> new EnumMap<>(Kind.class), Collectors.counting()));
        int bad = (int) expected.values().stream().mapToLong(Long::longValue).sum();
        double rate = records.size() / (double) Math.max(1, TRAFFIC_PER_ROUND.toSeconds() * plan.rounds());
        out.printf(Locale.ROOT, "%d nodes, %,d trace records (%,d malformed) at %,.0f records/s; %d instances, "
                + "session timeout %d ms; %d rounds, seed %d%n", cluster.nodes.size(), records.size(), bad, rate,
                plan.instances(), plan.sessionTimeout().toMillis(), plan.rounds(), plan.seed());
        out.flush();
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(cluster.nodes);
        }
        List<InstanceProcess> instances = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (Admin admin = Admin.create(settings.streamsProperties());
                FactorWatch watch = new FactorWatch(settings);
                PacedTraffic traffic = new PacedTraffic(settings, records, rate)) {
            start(instances, plan);
            SettledApplication application = new SettledApplication(settings, admin, instances);
            watch.start(plan.timeout());
            traffic.start();
            watch.firstAfter(0, plan.timeout());
            Random random = new Random(plan.seed());
            FaultInjector faults = new FaultInjector(instances, application, broker, traffic, watch, random, plan);
            List<Outcome> outcomes = rounds(plan, random, instances, application, faults, traffic, problems);
            traffic.finish();
            out.printf(Locale.ROOT, "all %,d records written; waiting for the application to consume them%n",
                    traffic.written());
            out.flush();
            application.awaitConsumed(plan.timeout());
            Map<String, NodeFactor> offline = OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                    settings.networkOptions());
            String mismatch = CommittedOutputChecks.awaitAnswer(watch, offline, plan.timeout());
            if (mismatch != null) {
                problems.add("the last factors are not the offline answer: " + mismatch);
            }
            List<FactorWatch.Seen> factors = watch.all();
            problems.addAll(CommittedOutputChecks.versionGaps(factors));
            problems.addAll(CommittedOutputChecks.historyProblems(FactorsTopic.readAll(settings,
                    new Topics(settings).factorHistory, plan.timeout()), factors));
            problems.addAll(CommittedOutputChecks.outsideTruth(factors, cluster));
            List<ConsumerRecord<byte[], byte[]>> dead = CommittedRecords.readAll(settings,
                    settings.get(TracesyncConfig.DLQ_TOPIC_CONFIG), plan.timeout());
            problems.addAll(CommittedOutputChecks.deadLetterProblems(dead, expected));
            return new Report(outcomes, records.size(), bad, factors.size(), dead.size(), List.copyOf(problems));
        } finally {
            for (InstanceProcess i : instances) {
                i.close();
            }
        }
    }

    /** Starts the plan's instances into {@code instances} (static members {@code fault-a}, …) and awaits them. */
    private void start(List<InstanceProcess> instances, Plan plan) throws Exception {
        for (int i = 0; i < plan.instances(); i++) {
            String name = Character.toString('a' + i);
            Map<String, String> own = new HashMap<>(config);
            own.put("group.instance.id", "fault-" + name);
            InstanceProcess instance = new InstanceProcess(name, javaCommand, own, work);
            instance.start();
            instances.add(instance);
        }
        for (InstanceProcess i : instances) {
            i.awaitRunning(plan.timeout());
        }
    }

    /**
     * The plan's rounds, each fault on a replicated application, in an order drawn from {@code random} that takes
     * each fault in turn; an instance that exited is a problem, and started again.
     */
    private List<Outcome> rounds(Plan plan, Random random, List<InstanceProcess> instances,
            SettledApplication application, FaultInjector faults, PacedTraffic traffic, List<String> problems)
            throws Exception {
        Random delays = new Random(plan.seed() + 1);
        List<Outcome> outcomes = new ArrayList<>();
        List<Fault> order = new ArrayList<>();
        for (int round = 1; round <= plan.rounds(); round++) {
            if (order.isEmpty()) {
                order.addAll(plan.faults());
                Collections.shuffle(order, random);
            }
            long replicated = application.awaitReplicated(traffic, delays, plan.timeout());
            Outcome o = faults.inflict(round, order.remove(0), replicated);
            outcomes.add(o);
            out.printf(Locale.ROOT, "round %d/%d: %-18s %-28s at %tT.%<tL (replicated after %,6d ms): next factor "
                    + "committed after %,6d ms%n", round, plan.rounds(), o.fault().label(), o.target(), o.atMs(),
                    o.replicatedMs(), o.factorAfterMs());
            out.flush();
            for (InstanceProcess i : instances) {
                if (!i.alive()) {
                    problems.add("round " + round + " (" + o.fault().label() + "): instance " + i.name()
                            + " exited with " + i.exitValue() + "; see " + i.log());
                    i.start();
                    i.awaitRunning(plan.timeout());
                }
            }
        }
        return outcomes;
    }
}
