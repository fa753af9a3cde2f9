package io.tracesync.faults;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracesync.avro.SyncFactor;
import io.tracesync.bench.AppInstance;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.environment.LocalKafka;
import io.tracesync.sim.MalformedRecords;
import io.tracesync.sim.MalformedRecords.Kind;
import io.tracesync.sim.MalformedRecords.Raw;
import io.tracesync.sim.PiecewiseLinearClock;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Several instances of one application under faults: a seeded simulated cluster, malformed records mixed into its
 * traces, written at a steady rate to a real broker; three instances (one standby), and at seeded moments a {@link
 * Fault} — an instance or two killed with SIGKILL (the network task's owner among them), a state directory wiped,
 * an instance paused past its session timeout, the broker killed and restarted on its logs. After each fault the
 * time until the next factor is committed is taken. At the end, from committed output only: every node's factor
 * is the offline answer ({@code sync-pairs} on the true pairs), every malformed record is a dead letter exactly
 * once, every node's factor versions count up with no gap and no repeat (nothing lost or written twice), and
 * every committed factor holds the true clocks at its anchor.
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
     * The settings of a fault run's application: its own id and topics, one standby, the plan's session timeout
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
        m.putAll(overrides);
        return m;
    }

    /** Runs the plan on {@code cluster} with {@code malformed} malformed records mixed in. */
    public Report run(SimulatedTraces cluster, int malformed, Plan plan) throws Exception {
        Random random = new Random(plan.seed());
        Random delays = new Random(plan.seed() + 1);
        List<Raw> records = MalformedRecords.interleave(cluster, settings.serdeConfig(),
                settings.get(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG), malformed, plan.seed());
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
        List<AppInstance> instances = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (Admin admin = Admin.create(settings.streamsProperties());
                FactorWatch watch = new FactorWatch(settings);
                PacedTraffic traffic = new PacedTraffic(settings, records, rate)) {
            for (int i = 0; i < plan.instances(); i++) {
                AppInstance instance = new AppInstance(Character.toString('a' + i), javaCommand, config, "fault",
                        work);
                instance.start();
                instances.add(instance);
            }
            for (AppInstance i : instances) {
                i.awaitRunning(plan.timeout());
            }
            watch.start(plan.timeout());
            traffic.start();
            watch.firstAfter(0, plan.timeout());
            List<Fault> order = new ArrayList<>();
            for (int round = 1; round <= plan.rounds(); round++) {
                if (order.isEmpty()) {
                    order.addAll(plan.faults());
                    Collections.shuffle(order, random);
                }
                long replicated = awaitReplicated(admin, instances, traffic, delays, plan.timeout());
                Outcome o = inflict(round, order.remove(0), instances, admin, traffic, watch, random, plan,
                        replicated);
                outcomes.add(o);
                out.printf(Locale.ROOT, "round %d/%d: %-18s %-28s at %tT.%<tL (replicated after %,6d ms): next factor "
                        + "committed after %,6d ms%n", round, plan.rounds(), o.fault().label(), o.target(), o.atMs(),
                        o.replicatedMs(), o.factorAfterMs());
                out.flush();
                for (AppInstance i : instances) {
                    if (!i.alive()) {
                        problems.add("round " + round + " (" + o.fault().label() + "): instance " + i.name()
                                + " exited with " + i.exitValue() + "; see " + i.log());
                        i.start();
                        i.awaitRunning(plan.timeout());
                    }
                }
            }
            traffic.finish();
            out.printf(Locale.ROOT, "all %,d records written; waiting for the application to consume them%n",
                    traffic.written());
            out.flush();
            awaitConsumed(admin, cluster.nodes, instances, plan.timeout());
            Map<String, NodeFactor> offline = OfflineSync.factors(cluster.pairs, settings.linkOptions(),
                    settings.networkOptions());
            String mismatch = awaitAnswer(watch, offline, plan.timeout());
            if (mismatch != null) {
                problems.add("the last factors are not the offline answer: " + mismatch);
            }
            List<FactorWatch.Seen> factors = watch.all();
            problems.addAll(versionGaps(factors));
            problems.addAll(historyProblems(FactorsTopic.readAll(settings, new Topics(settings).factorHistory,
                    plan.timeout()), factors));
            problems.addAll(outsideTruth(factors, cluster));
            List<ConsumerRecord<byte[], byte[]>> dead = committed(settings.get(TracesyncConfig.DLQ_TOPIC_CONFIG),
                    plan.timeout());
            problems.addAll(deadLetterProblems(dead, expected));
            return new Report(outcomes, records.size(), bad, factors.size(), dead.size(), List.copyOf(problems));
        } finally {
            for (AppInstance i : instances) {
                i.close();
            }
        }
    }

    private Outcome inflict(int round, Fault fault, List<AppInstance> instances, Admin admin, PacedTraffic traffic,
            FactorWatch watch, Random random, Plan plan, long replicatedMs) throws Exception {
        AppInstance any = instances.get(random.nextInt(instances.size()));
        long at = System.currentTimeMillis();
        String target;
        List<AppInstance> restarted = new ArrayList<>();
        switch (fault) {
            case KILL -> {
                any.kill();
                restarted.add(any);
                target = "instance " + any.name();
            }
            case KILL_NETWORK_OWNER -> {
                AppInstance owner = awaitNetworkOwner(admin, instances, plan.timeout());
                at = System.currentTimeMillis();
                owner.kill();
                restarted.add(owner);
                target = "instance " + owner.name() + " (network)";
            }
            case KILL_TWO -> {
                AppInstance other = instances.get((instances.indexOf(any) + 1 + random.nextInt(instances.size() - 1))
                        % instances.size());
                any.kill();
                other.kill();
                restarted.addAll(List.of(any, other));
                target = "instances " + any.name() + " and " + other.name();
            }
            case WIPE_STATE -> {
                any.kill();
                any.wipeState();
                restarted.add(any);
                target = "instance " + any.name() + " (state wiped)";
            }
            case PAUSE -> {
                any.pause();
                Thread.sleep(plan.sessionTimeout().toMillis() * 3 / 2 + 1000);
                any.markLog();
                any.resume();
                target = "instance " + any.name() + " for " + (System.currentTimeMillis() - at) + " ms";
            }
            case BROKER_CRASH -> {
                if (broker == null) {
                    throw new IllegalStateException("the broker fault needs a broker this run started");
                }
                traffic.pause();
                broker.crash(plan.brokerDown());
                at = System.currentTimeMillis();
                traffic.resume();
                target = "broker, down " + plan.brokerDown().toMillis() + " ms";
            }
            default -> throw new IllegalStateException("unknown fault " + fault);
        }
        for (AppInstance i : restarted) {
            i.start();
        }
        long first;
        try {
            first = watch.firstAfter(at, plan.timeout());
        } catch (IllegalStateException e) {
            throw new IllegalStateException("round " + round + " (" + fault.label() + ", " + target + "): "
                    + e.getMessage() + "; the instances:\n" + diagnosis(instances) + heldBack(admin), e);
        }
        for (AppInstance i : restarted) {
            i.awaitRunning(plan.timeout());
        }
        if (fault == Fault.PAUSE) {
            any.awaitRunning(plan.timeout());
        }
        return new Outcome(round, fault, target, at, first - at, replicatedMs);
    }

    /**
     * Waits until the application is whole again, so that each fault strikes a replicated application as the goal
     * "within 10 s of every fault, with one standby" presumes, not one still recovering from the previous fault:
     * the group stable (no rebalance under way: a follow-up one comes right after an instance took tasks back), every
     * instance RUNNING, every stateful task with its {@code num.standby.replicas} standbys placed, and every store
     * partition, active or standby, within {@code acceptable.recovery.lag} of its changelog's end (caught up, as
     * Kafka Streams' assignor counts it). The traffic is held meanwhile, so that every round has its share however
     * long this takes; it flows again a seeded 1–3 s before the fault, after which the application must still be
     * whole, else the wait begins again. Returns the ms until the application was whole.
     */
    private long awaitReplicated(Admin admin, List<AppInstance> instances, PacedTraffic traffic, Random delays,
            Duration timeout) throws Exception {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        StreamsConfig streams = new StreamsConfig(settings.streamsProperties());
        int standbys = Math.min(streams.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG), instances.size() - 1);
        long acceptable = streams.getLong(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG);
        while (true) {
            traffic.pause();
            List<JsonNode> health = health(instances);
            while (!replicated(health, standbys, acceptable) || groupState(admin) != GroupState.STABLE) {
                failAfter(deadline, timeout, admin, instances, health);
                Thread.sleep(200);
                health = health(instances);
            }
            long whole = (System.nanoTime() - start) / 1_000_000;
            traffic.resume();
            Thread.sleep(1000 + delays.nextInt(2000));
            health = health(instances);
            if (replicated(health, standbys, acceptable) && groupState(admin) == GroupState.STABLE) {
                return whole;
            }
            failAfter(deadline, timeout, admin, instances, health);
        }
    }

    private void failAfter(long deadline, Duration timeout, Admin admin, List<AppInstance> instances,
            List<JsonNode> health) throws Exception {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the application was not replicated again within " + timeout.toSeconds()
                    + " s (the group stable, every instance RUNNING, its standbys placed and caught up); the group is "
                    + groupState(admin) + ", the instances' health: " + health + "\n" + diagnosis(instances));
        }
    }

    private static List<JsonNode> health(List<AppInstance> instances) throws IOException, InterruptedException {
        List<JsonNode> health = new ArrayList<>();
        for (AppInstance i : instances) {
            health.add(i.health());
        }
        return health;
    }

    private GroupState groupState(Admin admin) throws ExecutionException, InterruptedException {
        String id = settings.get(StreamsConfig.APPLICATION_ID_CONFIG);
        return admin.describeConsumerGroups(List.of(id)).all().get().get(id).groupState();
    }

    static boolean replicated(List<JsonNode> health, int standbys, long acceptable) {
        int active = 0;
        int standby = 0;
        for (JsonNode h : health) {
            if (h == null || !h.path("ready").asBoolean()) {
                return false;
            }
            JsonNode r = h.path("replication");
            JsonNode lag = r.path("maxStoreLag");
            if (!lag.canConvertToLong() || lag.asLong() > acceptable) {
                return false;
            }
            active += r.path("activeTasks").asInt();
            standby += r.path("standbyTasks").asInt();
        }
        return active > 0 && standby >= active * standbys;
    }

    /** Each instance: whether it runs, and the last lines of its log that are neither stack frames nor retries. */
    private static String diagnosis(List<AppInstance> instances) throws IOException {
        StringBuilder out = new StringBuilder();
        for (AppInstance i : instances) {
            out.append("instance ").append(i.name()).append(i.alive() ? " runs" : " exited with " + i.exitValue())
                    .append(", log ").append(i.log()).append(":\n");
            List<String> lines = i.tail(2000).lines().filter(l -> l.startsWith("20") && !l.contains("NetworkClient"))
                    .toList();
            lines.subList(Math.max(0, lines.size() - 12), lines.size())
                    .forEach(l -> out.append("  ").append(l, 0, Math.min(l.length(), 300)).append('\n'));
        }
        return out.toString();
    }

    /** The partitions of the run's topics that an open transaction holds back, for a failure's message. */
    private String heldBack(Admin admin) {
        try {
            List<String> lines = OpenTransactions.holdingBack(admin, settings.get("application.id"));
            return lines.isEmpty() ? "no open transaction holds back a partition of the run's topics"
                    : "partitions held back by open transactions (one open past its producer's transaction.timeout.ms "
                            + "hangs, docs/STREAMS.md):\n  " + String.join("\n  ", lines);
        } catch (ExecutionException e) {
            return "the open transactions are unknown: " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "the open transactions are unknown: interrupted";
        }
    }

    private AppInstance awaitNetworkOwner(Admin admin, List<AppInstance> instances, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            AppInstance owner = AppInstance.networkOwner(admin, settings, instances);
            if (owner != null) {
                return owner;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no instance held the network task for " + timeout.toSeconds()
                        + " s");
            }
            Thread.sleep(200);
        }
    }

    /** Waits until the application's group has committed every record of the trace topics. */
    private void awaitConsumed(Admin admin, List<String> nodes, List<AppInstance> instances, Duration timeout)
            throws Exception {
        String prefix = settings.get(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG);
        List<String> topics = nodes.stream().map(n -> prefix + n).toList();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions().forEach(
                p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long lag = lag(admin, ends);
            if (lag == 0) {
                return;
            }
            for (AppInstance i : instances) {
                if (!i.alive()) {
                    throw new IllegalStateException("instance " + i.name() + " exited with " + i.exitValue()
                            + "; see " + i.log());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the application is still " + lag + " trace records behind after "
                        + timeout.toSeconds() + " s; " + heldBack(admin));
            }
            Thread.sleep(500);
        }
    }

    private long lag(Admin admin, Map<TopicPartition, Long> ends) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                settings.get("application.id")).partitionsToOffsetAndMetadata().get();
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(e.getKey());
            lag += Math.max(0, e.getValue() - (c == null ? 0 : c.offset()));
        }
        return lag;
    }

    /** Waits until every node's latest committed factor is the offline one; the last difference, or null. */
    private static String awaitAnswer(FactorWatch watch, Map<String, NodeFactor> offline, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, SyncFactor> latest = new TreeMap<>();
            watch.all().forEach(s -> latest.put(s.record().key(), s.record().value()));
            String mismatch = FactorsTopic.differences(offline, latest);
            if (mismatch == null || System.nanoTime() > deadline) {
                return mismatch;
            }
            Thread.sleep(500);
        }
    }

    /**
     * Every node's versions must run 1, 2, 3, … in the order committed: none lost, none written twice (a record
     * at an offset seen before would be this reader's fault, and is told apart).
     */
    static List<String> versionGaps(List<FactorWatch.Seen> factors) {
        Map<String, FactorWatch.Seen> last = new HashMap<>();
        Set<String> offsets = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (FactorWatch.Seen s : factors) {
            ConsumerRecord<String, SyncFactor> r = s.record();
            String at = r.partition() + "@" + r.offset();
            if (!offsets.add(at)) {
                problems.add(r.key() + ": the record at " + at + " read twice");
                continue;
            }
            long version = r.value().getVersion();
            FactorWatch.Seen before = last.get(r.key());
            long previous = before == null ? 0 : before.record().value().getVersion();
            if (version != previous + 1) {
                problems.add(r.key() + ": version " + version + " committed at " + at + ", seen at " + s.atMs()
                        + ", after version " + previous + (before == null ? "" : " at " + before.record().partition()
                        + "@" + before.record().offset() + ", seen at " + before.atMs()));
            }
            last.put(r.key(), s);
        }
        return problems;
    }

    /**
     * The factor history as committed, against the factors committed: every record one that {@code sync.factors}
     * committed too (the same node, version and value), each node's versions rising from its first.
     */
    static List<String> historyProblems(List<ConsumerRecord<String, SyncFactor>> history,
            List<FactorWatch.Seen> factors) {
        Map<String, SyncFactor> published = new HashMap<>();
        factors.forEach(s -> published.put(s.record().key() + " " + s.record().value().getVersion(),
                s.record().value()));
        Map<String, Long> last = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (ConsumerRecord<String, SyncFactor> r : history) {
            long version = r.value().getVersion();
            String at = r.partition() + "@" + r.offset();
            if (!r.value().equals(published.get(r.key() + " " + version))) {
                problems.add(r.key() + ": history version " + version + " at " + at + " is not the one "
                        + "sync.factors committed");
            }
            Long before = last.put(r.key(), version);
            if (before == null ? version != 1 : version <= before) {
                problems.add(r.key() + ": history version " + version + " at " + at + " after "
                        + (before == null ? "none (the first version is 1)" : "version " + before));
            }
        }
        factors.stream().map(s -> s.record().key()).distinct().filter(n -> !last.containsKey(n))
                .forEach(n -> problems.add(n + ": factors committed but no history"));
        return problems;
    }

    /** Every committed factor with a bound must hold the true clocks at its anchor (a reference's is exact). */
    static List<String> outsideTruth(List<FactorWatch.Seen> factors, SimulatedTraces cluster) {
        List<String> problems = new ArrayList<>();
        for (FactorWatch.Seen s : factors) {
            SyncFactor r = s.record().value();
            Factor f = PublishedFactor.of(r).factor();
            if (!f.bounded() || r.getReference().equals(s.record().key())) {
                continue;
            }
            PiecewiseLinearClock node = cluster.clock(s.record().key());
            long t = node.trueAt(f.anchorNs());
            long local = node.localAt(t);
            long reference = cluster.clock(r.getReference()).localAt(t);
            double errorPs = f.toReference().apply(local).subtract(DoubleDouble.of(reference)).hi() * 1000;
            if (errorPs > f.downAtPs(local) || -errorPs > f.upAtPs(local)) {
                problems.add(String.format(Locale.ROOT, "%s version %d: true error %.3f ns outside its bound "
                        + "(+%d / -%d ps)", s.record().key(), r.getVersion(), errorPs / 1000, f.upAtPs(local),
                        f.downAtPs(local)));
            }
        }
        return problems;
    }

    /**
     * Dead letters must be the malformed records, each once: the same count of each kind, and no source record
     * (topic, partition, offset, as Kafka Streams' dead-letter headers name it) twice.
     */
    static List<String> deadLetterProblems(List<ConsumerRecord<byte[], byte[]>> dead, Map<Kind, Long> expected) {
        List<String> problems = new ArrayList<>();
        Map<Kind, Long> got = new EnumMap<>(Kind.class);
        Set<String> sources = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> d : dead) {
            String message = header(d, "__streams.errors.message");
            Kind kind = message == null ? null : Kind.of(message);
            if (kind == null) {
                problems.add("a dead letter of no malformed kind: " + message);
                continue;
            }
            got.merge(kind, 1L, Long::sum);
            String source = header(d, "__streams.errors.topic") + "-" + header(d, "__streams.errors.partition") + "@"
                    + header(d, "__streams.errors.offset");
            if (source.contains("null")) {
                problems.add("a dead letter that does not name its source record: " + message);
            } else if (!sources.add(source)) {
                problems.add("a record twice in the dead-letter topic: " + source);
            }
        }
        if (!got.equals(expected)) {
            problems.add("dead letters by kind " + got + ", malformed records by kind " + expected);
        }
        return problems;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        Header h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Every committed record of a topic, from the beginning to its end now. */
    private List<ConsumerRecord<byte[], byte[]>> committed(String topic, Duration timeout) {
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading " + topic);
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }
}
