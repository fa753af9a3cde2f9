package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.client.ReferenceTime;
import io.tracesync.client.SyncClock;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.schema.SpecificAvroSerializer;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.TopicCreator;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SyncClock} on the real broker and registry: the latest version of every node whatever partition and order
 * its records came in, tombstones, aborted transactions never seen, live updates, a topic created after the
 * clock started; and the application's own factors, followed live, converting its events as the offline answer.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class SyncClockIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long T = 1_700_000_000_123_456_789L;

    private final String topic = "sync.factors-client-" + UUID.randomUUID();

    @Test
    void keepsTheLatestCommittedVersionOfEveryNodeAndFollowsTheTopic() throws Exception {
        createTopic(topic);
        try (OrderedProducer<String, SyncFactor> out = new OrderedProducer<>(config(), new StringSerializer(),
                serializer())) {
            // versions of a node spread over partitions, an older one read last where the partition order allows
            send(out, 0, factor("a", 1, 1, 0, 100.0, null));
            send(out, 1, factor("a", 3, 1 + 0x1p-40, 0x1p-95, -2.5e9, 250L));
            send(out, 2, factor("a", 2, 1, 0, 200.0, 1_000L));
            send(out, 0, factor("b", 2, 1, 0, 10.0, 3_000L));
            send(out, 0, factor("b", 1, 1, 0, 20.0, 3_000L));
            send(out, 1, factor("c", 1, 1, 0, 0.0, null));
            send(out, 1, new ProducerRecord<>(topic, 1, "c", null));
            send(out, 2, factor("d", 1, 0.999999, 0, 5.0, 7_500L));
            out.flush();
        }
        // an aborted transaction, which read_committed never shows, and a committed one
        transaction(false, factor("a", 9, 1, 0, -1.0, 0L), factor("g", 1, 1, 0, -1.0, 0L));
        transaction(true, factor("h", 1, 1, 0, 42.0, 0L));

        List<String> changes = new CopyOnWriteArrayList<>();
        try (SyncClock clock = SyncClock.start(clockConfig(topic),
                (node, previous, current) -> changes.add(node + (current == null ? " removed" : " v"
                        + current.version())))) {
            assertTrue(clock.awaitCaughtUp(WAIT), "not caught up");
            assertEquals(Set.of("a", "b", "d", "h"), clock.nodes());
            assertEquals(3, clock.factor("a").orElseThrow().version());
            assertEquals(2, clock.factor("b").orElseThrow().version());
            assertTrue(changes.containsAll(List.of("a v3", "b v2", "c v1", "c removed", "d v1", "h v1")),
                    changes.toString());
            assertTrue(changes.stream().noneMatch(c -> c.startsWith("g") || c.equals("a v9")), changes.toString());

            // (1 + 2^-40 + 2^-95)·T − 2.5e9 exactly: T·2^-40 = 1546140.9931..., T·2^-95 = 4.3e-11
            ReferenceTime a = clock.convert("a", T).orElseThrow();
            long expected = T + 1_546_141 - 2_500_000_000L;
            assertEquals(expected, a.referenceNs());
            assertEquals(OptionalLong.of(expected - 1), a.lowerNs()); // .9931 - 0.25 rounded down
            assertEquals(OptionalLong.of(expected + 1), a.upperNs()); // .9931 + 0.25 rounded up
            assertEquals("ref", a.reference());
            assertEquals(3, a.version());
            assertEquals(10 + 1000, clock.convert("b", 1000).orElseThrow().referenceNs());
            assertTrue(clock.convert("c", 0).isEmpty());

            try (OrderedProducer<String, SyncFactor> out = new OrderedProducer<>(config(), new StringSerializer(),
                    serializer())) {
                send(out, 2, factor("a", 4, 1, 0, 7.0, 0L));
                send(out, 2, new ProducerRecord<>(topic, 2, "d", null));
                out.flush();
            }
            // the listener hears of a change after the table shows it: both awaited
            Waiting.until(() -> clock.factor("a").map(f -> f.version() == 4).orElse(false)
                    && clock.factor("d").isEmpty() && changes.containsAll(List.of("a v4", "d removed")), WAIT,
                    "live updates not seen");
            assertEquals(Set.of("a", "b", "h"), clock.nodes());
            assertEquals(T + 7, clock.convert("a", T).orElseThrow().referenceNs());
            assertTrue(changes.containsAll(List.of("a v4", "d removed")), changes.toString());
        }
    }

    @Test
    void waitsForATopicCreatedAfterItStarted() throws Exception {
        try (SyncClock clock = SyncClock.start(clockConfig(topic))) {
            assertTrue(!clock.awaitCaughtUp(Duration.ofSeconds(2)), "caught up with a topic that does not exist");
            createTopic(topic);
            try (OrderedProducer<String, SyncFactor> out = new OrderedProducer<>(config(), new StringSerializer(),
                    serializer())) {
                send(out, 0, factor("x", 1, 1, 0, 1.0, 0L));
                out.flush();
            }
            Waiting.until(() -> clock.factor("x").isPresent(), WAIT, "factor of a topic created later not read");
            assertTrue(clock.awaitCaughtUp(WAIT));
        }
    }

    @Test
    void followsTheApplicationsFactorsFromBeforeItsTopicExists(@TempDir Path dir) throws Exception {
        Map<String, String> isolated = SharedKafkaEnvironment.isolated("client-app-" + UUID.randomUUID());
        Settings settings = Settings.of(isolated).with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200").with("factors.emit.interval", "200ms")
                .with("factors.min.change", "0").with("links.min.change", "0");
        SimulatedTraces cluster = SimulatedTraces.run(5, 20_000_000_000L, 11);
        Settings defaults = Settings.of(Map.of());
        Map<String, NodeFactor> expected = OfflineSync.factors(cluster.pairs, defaults.linkOptions(),
                defaults.networkOptions());
        List<String> seen = new CopyOnWriteArrayList<>();
        try (SyncClock clock = SyncClock.start(clockConfig(settings.get("factors.topic")),
                (node, previous, current) -> seen.add(node + " " + current.version()));
             TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.forEach(writer::write);
                writer.flush();
                FactorAnswers.await(settings, expected, WAIT);
            }
            Map<String, SyncFactor> latest = FactorsTopic.latest(settings, WAIT);
            Waiting.until(() -> latest.keySet().equals(clock.nodes()) && latest.values().stream().allMatch(
                    r -> clock.factor(r.getNode()).map(f -> f.version() == r.getVersion()).orElse(false)),
                    WAIT, "the clock's factors are not the topic's latest");
            assertTrue(clock.awaitCaughtUp(Duration.ZERO));
            for (TraceEvent e : cluster.events) {
                ReferenceTime c = clock.factor(e.getNode()).orElseThrow().convert(e.getTsNs());
                NodeFactor f = expected.get(e.getNode());
                assertEquals(f.reference(), c.reference());
                assertEquals(f.factor().toReference().applyRounded(e.getTsNs()), c.referenceNs(), e::toString);
                // the answer of the versions in force at the event's time on the same reference's clock (a node's
                // reference may have changed since): both intervals hold its true time
                ReferenceTime past = clock.convert(e.getNode(), e.getTsNs(), c.reference()).orElseThrow();
                assertTrue(past.lowerNs().orElse(Long.MIN_VALUE) <= c.upperNs().orElse(Long.MAX_VALUE)
                        && c.lowerNs().orElse(Long.MIN_VALUE) <= past.upperNs().orElse(Long.MAX_VALUE),
                        () -> past + " vs " + c);
            }
            // every committed record seen, in order: each node's versions 1, 2, 3, ...
            Map<String, Long> versions = new TreeMap<>();
            for (String s : seen) {
                String[] nodeVersion = s.split(" ");
                long v = Long.parseLong(nodeVersion[1]);
                assertEquals(versions.getOrDefault(nodeVersion[0], 0L) + 1, v, seen::toString);
                versions.put(nodeVersion[0], v);
            }
            System.out.printf("%d events of %d nodes converted by the clock as the offline answer does; versions %s%n",
                    cluster.events.size(), expected.size(), versions);
        }
    }

    private void transaction(boolean commit, ProducerRecord<String, SyncFactor>... records) throws Exception {
        Map<String, Object> p = new HashMap<>(config());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "client-it-" + UUID.randomUUID());
        try (KafkaProducer<String, SyncFactor> producer = new KafkaProducer<>(p, new StringSerializer(),
                serializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (ProducerRecord<String, SyncFactor> r : records) {
                producer.send(r).get();
            }
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
        }
    }

    private void send(OrderedProducer<String, SyncFactor> out, int partition, ProducerRecord<String, SyncFactor> r) {
        out.send(new ProducerRecord<>(r.topic(), partition, r.key(), r.value()));
    }

    private ProducerRecord<String, SyncFactor> factor(String node, long version, double slopeHi, double slopeLo,
            double offset, Long boundPs) {
        SyncFactor f = SyncFactor.newBuilder().setNode(node).setComponent("ref").setReference("ref")
                .setMap(new ClockMap(slopeHi, slopeLo, offset, 0.0)).setUpPs(boundPs).setDownPs(boundPs)
                .setBoundNs(boundPs == null ? null : boundPs / 1000.0).setValidFromMs(System.currentTimeMillis())
                .setVersion(version).build();
        return new ProducerRecord<>(topic, node, f);
    }

    private static void createTopic(String name) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers",
                SharedKafkaEnvironment.bootstrapServers()))) {
            TopicCreator.create(admin, List.of(new NewTopic(name, 3, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))));
        }
    }

    private static Map<String, Object> config() {
        return Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                "schema.registry.url", SharedKafkaEnvironment.registryUrl());
    }

    private static Map<String, Object> clockConfig(String topic) {
        Map<String, Object> c = new HashMap<>(config());
        c.put(SyncClock.TOPIC_CONFIG, topic);
        return c;
    }

    private static SpecificAvroSerializer<SyncFactor> serializer() {
        SpecificAvroSerializer<SyncFactor> s = new SpecificAvroSerializer<>(SyncFactor.class);
        s.configure(config(), false);
        return s;
    }
}
