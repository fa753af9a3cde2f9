package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.testkit.GroupVerifier;
import io.tracesync.testkit.InstanceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged application, killed with SIGKILL at seeded random moments and restarted each time on the same state
 * directory, on a real broker: exactly_once_v2 must lose and repeat nothing. In the deterministic mode
 * ({@code factors.emit.interval=0}, one input partition) the whole committed {@code sync.factors} stream equals an
 * uninterrupted run's record for record, and so does the factor history; in the default coalesced mode the final
 * factors equal the offline answer, every node's versions count up with no gap and no repeat, and the history holds
 * published versions only, each node's first among them, none twice.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class CrashRecoveryTest {

    private static final long SEED = 20261123;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Settings DEFAULTS = Settings.of(Map.of());
    private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xmx256m", "-XX:TieredStopAtLevel=1");
    /**
     * An earlier build's production jar whose instances write the state directory the upgrade test takes over
     * ({@code -Dtracesync.upgrade.from=PATH}: its {@code tracesync-topology-*-all.jar}, e.g. a build on Kafka 4.3);
     * by default this build with transactional state stores off, which writes the checkpoint files 4.3 wrote.
     */
    private static final String UPGRADE_FROM = System.getProperty("tracesync.upgrade.from", "");

    @TempDir
    Path dir;

    private final SimulatedTraces cluster = SimulatedTraces.run(6, 20_000_000_000L, 31);
    private final String input = "traces-crash-" + UUID.randomUUID();

    @Test
    void twentyKillsLeaveExactlyTheFactorStreamOfAnUninterruptedRun() throws Exception {
        Map<String, String> deterministic = Map.of("factors.emit.interval", "0", "factors.min.change", "0",
                "links.min.change", "0");
        Map<String, String> crashed = settings("crashed", deterministic);
        runWithKills(crashed, PackagedJar.IMAGE.command(JVM), 20, crashed);

        Settings reference = Settings.of(settings("uninterrupted", deterministic));
        try (TracesyncApp app = TracesyncApp.start(reference)) {
            awaitOffline(reference);
        }
        List<String> expected = stream(reference, new Topics(reference).factors);
        assertTrue(expected.size() > 2 * cluster.nodes.size(), "factors change many times: " + expected.size());
        Settings killed = Settings.of(crashed);
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> got;
        while (!(got = stream(killed, new Topics(killed).factors)).equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        assertEquals(String.join("\n", expected), String.join("\n", got));
        // the history, written in the same transactions, too
        List<String> history = stream(reference, new Topics(reference).factorHistory);
        assertTrue(history.size() >= cluster.nodes.size() && history.size() < expected.size(),
                "the history keeps some versions: " + history.size() + " of " + expected.size());
        assertEquals(String.join("\n", history), String.join("\n", stream(killed, new Topics(killed).factorHistory)));
    }

    @Test
    void killsInTheCoalescedModeLoseAndRepeatNoFactorVersion() throws Exception {
        Map<String, String> crashed = settings("coalesced", Map.of("factors.emit.interval", "200ms",
                "factors.min.change", "0", "links.min.change", "0"));
        runWithKills(crashed, PackagedJar.IMAGE.command(JVM), 5, crashed);
        assertNoVersionLostOrRepeated(Settings.of(crashed));
    }

    /**
     * The upgrade of a state directory: written by instances without transactional state stores (checkpoint files,
     * as Kafka Streams 4.3 wrote it) — or by an earlier build ({@link #UPGRADE_FROM}) — each killed, then taken over
     * by an instance of this build with them (KIP-892, tracesync's default): the offline answer, no factor version
     * lost or repeated.
     */
    @Test
    void aStateDirectoryWrittenWithoutTransactionalStoresIsTakenOver() throws Exception {
        Map<String, String> upgraded = settings("upgraded", Map.of("factors.emit.interval", "200ms",
                "factors.min.change", "0", "links.min.change", "0"));
        Map<String, String> before = new HashMap<>(upgraded);
        List<String> writer;
        if (UPGRADE_FROM.isEmpty()) {
            before.put("enable.transactional.statestores", "false");
            writer = PackagedJar.IMAGE.command(JVM);
        } else {
            writer = PackagedJar.command(Path.of(UPGRADE_FROM), JVM);
            System.out.println("the state directory written by " + UPGRADE_FROM);
        }
        runWithKills(before, writer, 3, upgraded);
        assertNoVersionLostOrRepeated(Settings.of(upgraded));
    }

    private static void assertNoVersionLostOrRepeated(Settings s) {
        Map<String, List<Long>> versions = new TreeMap<>();
        Map<String, SyncFactor> published = new HashMap<>();
        for (ConsumerRecord<String, SyncFactor> r : FactorsTopic.readAll(s, WAIT)) {
            versions.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value().getVersion());
            published.put(r.key() + " " + r.value().getVersion(), r.value());
        }
        versions.forEach((node, v) -> {
            for (int i = 0; i < v.size(); i++) {
                assertEquals(i + 1, v.get(i), node + " versions " + v);
            }
        });
        // the history: published versions only, each node's counting up with none repeated, its first kept
        Map<String, List<Long>> kept = new TreeMap<>();
        for (ConsumerRecord<String, SyncFactor> r : FactorsTopic.readAll(s, new Topics(s).factorHistory, WAIT)) {
            assertEquals(published.get(r.key() + " " + r.value().getVersion()), r.value(), "a published version");
            kept.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value().getVersion());
        }
        assertEquals(versions.keySet(), kept.keySet());
        kept.forEach((node, v) -> {
            assertEquals(1, v.get(0), node + " kept " + v);
            for (int i = 1; i < v.size(); i++) {
                assertTrue(v.get(i) > v.get(i - 1), node + " kept " + v);
            }
        });
    }

    /**
     * Writes the input in {@code kills + 1} parts, one to each instance, and kills the instance a seeded 0.5–4 s after
     * it runs, its part written a seeded 0–400 ms before the kill so that most kills hit it mid-stream; the last
     * instance, of this build and settings {@code last}, is left to commit everything, then its factors must be the
     * offline answer; the others run {@code java}.
     * Every instance shares one state directory and one static group member id, so a restart takes over at
     * once (no wait for the dead member's session to expire; its open transaction is aborted by the same
     * transactional id).
     */
    private void runWithKills(Map<String, String> settings, List<String> java, int kills, Map<String, String> last)
            throws Exception {
        Settings s = Settings.of(settings);
        Random random = new Random(SEED);
        List<List<TraceEvent>> parts = parts(cluster.events, kills + 1);
        int pendingAtKill = 0;
        long began = System.nanoTime();
        try (TraceTopicWriter writer = new TraceTopicWriter(s); Admin admin = Admin.create(s.streamsProperties())) {
            writer.createTopics(cluster.nodes);
            GroupVerifier group = new GroupVerifier(ApplicationGroup.of(admin, s));
            List<String> current = PackagedJar.IMAGE.command(JVM);
            for (int i = 0; i <= kills; i++) {
                try (InstanceProcess app = new InstanceProcess(s.get("application.id") + "-" + i,
                        i == kills ? current : java, i == kills ? last : settings, dir)) {
                    app.start();
                    app.awaitRunning(WAIT);
                    if (i == kills) {
                        parts.get(i).forEach(writer::write);
                        writer.flush();
                        group.awaitFinished(List.of(input), WAIT, app::requireAlive, () -> "see " + app.log());
                        awaitOffline(s);
                        break;
                    }
                    long wait = 500 + random.nextInt(3_500);
                    long lead = random.nextInt(400);
                    Thread.sleep(wait - lead);
                    parts.get(i).forEach(writer::write);
                    writer.flush();
                    Thread.sleep(lead);
                    if (!group.hasFinished(List.of(input))) {
                        pendingAtKill++;
                    }
                    assertEquals(InstanceProcess.KILLED, app.kill(), "killed by SIGKILL");
                }
            }
        }
        System.out.printf("%s: %d events, %d kills (%d with input not yet committed) in %d s%n",
                s.get("application.id"), cluster.events.size(), kills, pendingAtKill,
                (System.nanoTime() - began) / 1_000_000_000L);
    }

    private Map<String, String> settings(String name, Map<String, String> mode) {
        String id = "it-" + name + "-" + UUID.randomUUID();
        Map<String, String> m = new HashMap<>(Map.of(
                "bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                "schema.registry.url", SharedKafkaEnvironment.registryUrl(),
                "application.id", id,
                "group.instance.id", id,
                "state.dir", dir.resolve(id).toString(),
                "traces.topic", input,
                "factors.topic", "sync.factors-" + id,
                "tree.topic", "sync.tree-" + id,
                "links.topic", "sync.links-" + id,
                "dlq.topic", "sync.dlq-" + id));
        m.put("topics.partitions", "1");
        m.put("matcher.rotation", "1h");
        m.putAll(mode);
        return m;
    }

    private static <T> List<List<T>> parts(List<T> all, int n) {
        List<List<T>> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(all.subList(all.size() * i / n, all.size() * (i + 1) / n));
        }
        return parts;
    }

    /** A committed stream of factor records: key, record time and value of every record, in order. */
    private static List<String> stream(Settings settings, String topic) {
        return FactorsTopic.readAll(settings, topic, WAIT).stream()
                .map(r -> r.key() + " @" + r.timestamp() + " " + r.value()).toList();
    }

    private void awaitOffline(Settings settings) throws InterruptedException {
        FactorAnswers.await(settings, OfflineSync.factors(cluster.pairs, DEFAULTS.linkOptions(),
                DEFAULTS.networkOptions()), WAIT);
    }
}
