package io.tracesync.bench;

import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.testkit.GroupVerifier;
import io.tracesync.testkit.InstanceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Failover of the network task: two instances of one application (two JVMs, static membership as the k8s manifests
 * run them) process a loaded cluster; under live traffic the instance that runs the network task is killed with
 * SIGKILL, and the time is taken until the survivor commits the next record to {@code sync.factors} — with its
 * phases from the survivor's log: the kill noticed (its state leaves RUNNING: the group's session timeout of the
 * dead static member), the survivor running again, the first factor committed. The network stores' changelog is
 * measured too: what a survivor without a standby restores.
 */
public final class FailoverRun {

    /** What was measured, in ms after the kill. */
    public record Result(String killed, long rebalanceMs, long runningMs, long firstFactorMs, long changelogRecords,
            long changelogBytes) {
    }

    private static final Pattern STATE = Pattern.compile("^(\\S+) INFO TracesyncApp - state (\\S+) -> (\\S+)");

    private final Map<String, String> config;
    private final Settings settings;
    private final List<String> instanceCommand;
    private final Path work;

    /**
     * @param config the application's settings over the defaults (its id, topics, standbys, session timeout), for
     *     both instances
     * @param instanceCommand how to start {@code tracesync run} in a JVM of its own, without settings
     */
    public FailoverRun(Map<String, String> config, List<String> instanceCommand, Path work) {
        this.config = Map.copyOf(config);
        this.settings = Settings.of(config);
        this.instanceCommand = List.copyOf(instanceCommand);
        this.work = work;
    }

    /** What to check once the failover is over and every live event written, while the survivor still runs. */
    public interface AfterFailover {
        void check() throws Exception;
    }

    /**
     * Loads {@code load}, waits until both instances have processed it and the factors are quiet, then writes
     * {@code live} at {@code rate} events per second, killing the instance with the network task two seconds in.
     */
    public Result run(List<TraceEvent> load, List<TraceEvent> live, double rate, Duration timeout,
            AfterFailover after) throws Exception {
        Files.createDirectories(work);
        String id = settings.get("application.id");
        try (TraceTopicWriter writer = new TraceTopicWriter(settings);
                Admin admin = Admin.create(settings.streamsProperties())) {
            writer.createTopics(load.stream().map(TraceEvent::getNode).distinct().toList());
            Map<String, InstanceProcess> instances = new HashMap<>();
            try {
                for (String name : List.of("a", "b")) {
                    Map<String, String> own = new HashMap<>(config);
                    own.put("group.instance.id", "failover-" + name);
                    InstanceProcess instance = new InstanceProcess(name, instanceCommand, own, work);
                    instance.start();
                    instances.put(name, instance);
                }
                load.forEach(writer::write);
                writer.flush();
                GroupVerifier group = new GroupVerifier(ApplicationGroup.of(admin, settings));
                group.awaitFinished(new InputLag(admin, settings).topics(), timeout,
                        () -> instances.values().forEach(InstanceProcess::requireAlive),
                        () -> "see " + log("a") + " and " + log("b"));
                awaitQuiet(Duration.ofSeconds(3), timeout);
                InstanceProcess network = group.holder(new TopicPartition(InternalTopics.networkTaskInput(settings),
                        0), instances.values());
                if (network == null) {
                    throw new IllegalStateException("no instance holds the network task: " + instances.keySet());
                }
                String owner = network.name();
                String survivor = owner.equals("a") ? "b" : "a";
                long[] changelog = changelog(admin,
                        InternalTopics.changelog(id, TracesyncTopology.NETWORK_LINK_STORE));
                AtomicReference<Exception> failed = new AtomicReference<>();
                Thread traffic = new Thread(() -> pace(writer, live, rate, failed), "failover-traffic");
                try (KafkaConsumer<byte[], byte[]> factors = factorsAtEnd()) {
                    traffic.start();
                    Thread.sleep(2000);
                    factors.poll(Duration.ZERO);
                    factors.seekToEnd(factors.assignment());
                    factors.assignment().forEach(factors::position);
                    long killedAt = System.currentTimeMillis();
                    instances.remove(owner).kill();
                    long first = firstRecordAfter(factors, killedAt, timeout);
                    traffic.join();
                    if (failed.get() != null) {
                        throw failed.get();
                    }
                    after.check();
                    long[] states = states(log(survivor), killedAt);
                    return new Result(owner, states[0], states[1], first - killedAt, changelog[0], changelog[1]);
                }
            } finally {
                for (InstanceProcess i : instances.values()) {
                    i.close();
                }
            }
        }
    }

    /** An instance's log ("a" or "b"). */
    public Path log(String instance) {
        return InstanceProcess.log(work, instance);
    }

    /** Waits until no factor record has been committed for {@code quiet}. */
    private void awaitQuiet(Duration quiet, Duration timeout) throws Exception {
        try (KafkaConsumer<byte[], byte[]> factors = factorsAtEnd()) {
            factors.seekToBeginning(factors.assignment());
            long deadline = System.nanoTime() + timeout.toNanos();
            long last = System.nanoTime();
            while (System.nanoTime() - last < quiet.toNanos()) {
                if (!factors.poll(Duration.ofMillis(200)).isEmpty()) {
                    last = System.nanoTime();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("sync.factors never went quiet in " + timeout.toSeconds() + " s");
                }
            }
        }
    }

    /** Records and bytes of a changelog topic (all partitions). */
    private static long[] changelog(Admin admin, String topic) throws ExecutionException, InterruptedException {
        TopicPartition p = new TopicPartition(topic, 0);
        long records = admin.listOffsets(Map.of(p, OffsetSpec.latest())).all().get().get(p).offset()
                - admin.listOffsets(Map.of(p, OffsetSpec.earliest())).all().get().get(p).offset();
        int broker = admin.describeCluster().nodes().get().iterator().next().id();
        long bytes = admin.describeLogDirs(List.of(broker)).allDescriptions().get().get(broker).values().stream()
                .mapToLong(d -> d.replicaInfos().entrySet().stream().filter(e -> e.getKey().topic().equals(topic))
                        .mapToLong(e -> e.getValue().size()).sum()).sum();
        return new long[] {records, bytes};
    }

    private void pace(TraceTopicWriter writer, List<TraceEvent> live, double rate,
            AtomicReference<Exception> failed) {
        long start = System.nanoTime();
        try {
            for (int i = 0; i < live.size(); i++) {
                long due = start + (long) (i * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                writer.write(live.get(i));
            }
            writer.flush();
        } catch (Exception e) {
            failed.set(e);
        }
    }

    private KafkaConsumer<byte[], byte[]> factorsAtEnd() {
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(CommittedRecords.readerProperties(settings),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        String topic = settings.get(TracesyncConfig.FACTORS_TOPIC_CONFIG);
        c.assign(c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList());
        c.seekToEnd(c.assignment());
        return c;
    }

    /** When (ms since the epoch) the first factor record after the kill was seen. */
    private static long firstRecordAfter(KafkaConsumer<byte[], byte[]> factors, long killedAt, Duration timeout) {
        long deadline = killedAt + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            ConsumerRecords<byte[], byte[]> r = factors.poll(Duration.ofMillis(50));
            if (!r.isEmpty()) {
                return System.currentTimeMillis();
            }
        }
        throw new IllegalStateException("no factor committed within " + timeout.toSeconds() + " s of the kill");
    }

    /**
     * From the survivor's log: ms after the kill until its state first left RUNNING, and until it was RUNNING
     * again; -1 where that did not happen.
     */
    static long[] states(Path log, long killedAt) throws IOException {
        long left = -1;
        long back = -1;
        DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
            Matcher m = STATE.matcher(line);
            if (!m.find()) {
                continue;
            }
            long at = OffsetDateTime.parse(m.group(1), format).toInstant().toEpochMilli();
            if (at < killedAt) {
                continue;
            }
            if (left < 0 && m.group(2).equals("RUNNING")) {
                left = at - killedAt;
            } else if (left >= 0 && back < 0 && m.group(3).equals("RUNNING")) {
                back = at - killedAt;
            }
        }
        return new long[] {left, back};
    }
}
