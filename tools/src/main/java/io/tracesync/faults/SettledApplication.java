package io.tracesync.faults;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.testkit.GroupVerifier;
import io.tracesync.testkit.InstanceProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The application of a fault run as its instances and the broker tell it: whether it is whole again between faults
 * (group stable, every instance RUNNING, standbys placed and caught up), who holds the network task, whether it
 * has consumed every trace record, and what to say of it when a wait fails (each instance's log, the open
 * transactions holding partitions back).
 */
final class SettledApplication {

    private final Settings settings;
    private final Admin admin;
    private final GroupVerifier group;
    private final List<InstanceProcess> instances;

    SettledApplication(Settings settings, Admin admin, List<InstanceProcess> instances) {
        this.settings = settings;
        this.admin = admin;
        this.group = new GroupVerifier(ApplicationGroup.of(admin, settings));
        this.instances = instances;
    }

    /**
     * Waits until the application is whole again, so that each fault strikes a replicated application as the goal
     * "within 10 s of every fault, with one standby" presumes, not one still recovering from the previous fault:
     * the group stable (no rebalance under way: a follow-up one comes right after an instance took tasks back), every
     * instance RUNNING, every stateful task with its standbys placed ({@code num.standby.replicas}, or the streams
     * group's on the broker), and every store partition, active or standby, within {@code acceptable.recovery.lag}
     * of its changelog's end (caught up, as Kafka Streams' assignor counts it). The traffic is held meanwhile, so that every round has its share however
     * long this takes; it flows again a seeded 1–3 s before the fault, after which the application must still be
     * whole, else the wait begins again. Returns the ms until the application was whole.
     */
    long awaitReplicated(PacedTraffic traffic, Random delays, Duration timeout) throws Exception {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        StreamsConfig streams = new StreamsConfig(settings.streamsProperties());
        int standbys = Math.min(group.standbyReplicas(settings), instances.size() - 1);
        long acceptable = streams.getLong(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG);
        while (true) {
            traffic.pause();
            List<JsonNode> health = health();
            while (!replicated(health, standbys, acceptable) || group.state() != GroupState.STABLE) {
                failAfter(deadline, timeout, health);
                Thread.sleep(200);
                health = health();
            }
            long whole = (System.nanoTime() - start) / 1_000_000;
            traffic.resume();
            Thread.sleep(1000 + delays.nextInt(2000));
            health = health();
            if (replicated(health, standbys, acceptable) && group.state() == GroupState.STABLE) {
                return whole;
            }
            failAfter(deadline, timeout, health);
        }
    }

    private void failAfter(long deadline, Duration timeout, List<JsonNode> health) throws Exception {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the application was not replicated again within " + timeout.toSeconds()
                    + " s (the group stable, every instance RUNNING, its standbys placed and caught up); the group is "
                    + group.state() + ", the instances' health: " + health + "\n" + diagnosis());
        }
    }

    private List<JsonNode> health() throws IOException, InterruptedException {
        List<JsonNode> health = new ArrayList<>();
        for (InstanceProcess i : instances) {
            health.add(i.health());
        }
        return health;
    }

    /**
     * Whether instances of these {@code /health} answers (null: no HTTP side yet) are whole: every one ready, every
     * store within {@code acceptable} of its changelog's end, some task active and {@code standbys} standbys each.
     */
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

    /** The instance that holds the network task's input partition, once one does. */
    InstanceProcess awaitNetworkOwner(Duration timeout) throws Exception {
        TopicPartition input = new TopicPartition(InternalTopics.networkTaskInput(settings), 0);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            InstanceProcess owner = group.holder(input, instances);
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
    void awaitConsumed(Duration timeout) throws Exception {
        group.awaitFinished(new InputLag(admin, settings).topics(), timeout,
                () -> instances.forEach(InstanceProcess::requireAlive), this::heldBack);
    }

    /** Each instance: whether it runs, and the last lines of its log that are neither stack frames nor retries. */
    String diagnosis() throws IOException {
        StringBuilder out = new StringBuilder();
        for (InstanceProcess i : instances) {
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
    String heldBack() {
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
}
