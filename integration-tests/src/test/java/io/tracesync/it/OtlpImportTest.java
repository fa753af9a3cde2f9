package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tracesync.client.SyncClock;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.otel.HostIdentity;
import io.tracesync.otel.OtlpFormat;
import io.tracesync.otel.OtlpSpans;
import io.tracesync.otel.SkewedHosts;
import io.tracesync.otel.SpanPairer;
import io.tracesync.otel.SpanTimeCorrection;
import io.tracesync.otel.CorrectedSpansTopology;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TopicCreator;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import otlp --topic} on the real broker and registry: SDK spans of calls and messages in a topic as the
 * Collector's Kafka exporter writes them (otlp_proto, one request per record, one record that is not), imported,
 * give the streaming application the offline answer of the same spans; {@code correct-spans}' topology then puts
 * every span within its bound of its reference's true clock.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class OtlpImportTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void spansFromTheExportersTopicGiveTheOfflineAnswerLive() throws Exception {
        String id = "it-otlp-" + UUID.randomUUID();
        Settings settings = Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200")
                .with("factors.min.change", "0")
                .with("links.min.change", "0")
                .with("session.timeout.ms", "6000");
        SkewedHosts sim = new SkewedHosts(5);
        SkewedHosts.Host web = sim.host("web", 0, 0);
        SkewedHosts.Host api = sim.host("api", 21_000_000, 17.0);
        SkewedHosts.Host db = sim.host("db", -480_000_000, -33.0);
        for (int i = 0; i < 300; i++) {
            sim.call(i % 2 == 0 ? web : api, i % 2 == 0 ? api : db, SkewedHosts.T0 + i * 100_000_000L);
            if (i % 3 == 0) { // and messages through a broker, both ways, as children and by links
                sim.publish(i % 2 == 0 ? api : db, i % 2 == 0 ? db : api, SkewedHosts.T0 + i * 100_000_000L
                        + 50_000_000L, i % 4 < 2);
            }
        }
        List<byte[]> requests = sim.requests(50, false);

        String topic = "otlp-" + id; // outside the trace topics' pattern
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaEnvironment.bootstrapServers());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers()));
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                        new ByteArraySerializer())) {
            // every partition answering before the first write, and every write checked: import reads the topic
            // up to its end offsets at start, so a record still being retried would be missed
            TopicCreator.create(admin, List.of(new NewTopic(topic, 2, (short) 1)));
            for (byte[] r : requests) {
                producer.send(new ProducerRecord<>(topic, r)).get();
            }
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) 0xff, (byte) 0xff, 1})).get();
        }

        Cli imported = Cli.run("import", "otlp", "--topic", topic,
                "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl(), "-D", "traces.topic.prefix=" + id + ".");
        System.out.print(imported.err() + imported.out());
        assertEquals(2, imported.exit(), imported.err());
        assertTrue(imported.err().lines().anyMatch(l -> l.matches(topic
                + "-0@\\d+: not an OTLP protobuf ExportTraceServiceRequest: .*")), imported.err());
        assertTrue(imported.out().startsWith("imported 300 calls and 100 messages (1,400 events) of 3 hosts from 800 "
                + "client/server/producer/consumer spans"), imported.out());
        assertTrue(imported.out().contains("1 undecodable input(s)"), imported.out());

        List<SendReceive> pairs = new ArrayList<>();
        SpanPairer pairer = new SpanPairer(1_000_000, x -> {
            pairs.add(x.request());
            pairs.add(x.response());
        }, m -> pairs.add(m.message()));
        OtlpSpans spans = new OtlpSpans(HostIdentity.DEFAULT);
        for (byte[] r : requests) {
            spans.read(OtlpFormat.OTLP_PROTO.decode(r), pairer::accept, pairer::accept);
        }
        Map<String, NodeFactor> offline = OfflineSync.factors(pairs, settings.linkOptions(),
                settings.networkOptions());
        assertEquals(3, offline.size());
        try (TracesyncApp app = TracesyncApp.start(settings)) {
            FactorAnswers.await(settings, offline, WAIT);
        }
        correctSpans(settings, topic, requests.size(), sim);
    }

    /**
     * correct-spans' topology with a SyncClock on the factors just computed: every span comes out corrected, within
     * its bound of its reference's true clock.
     */
    private void correctSpans(Settings settings, String topic, int records, SkewedHosts sim) throws Exception {
        String output = "otlp-corrected-" + settings.get("application.id");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(output, 1, (short) 1))).all().get();
        }
        Properties p = settings.with("state.dir", dir.resolve("state-correct").toString()).streamsProperties();
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, settings.get("application.id") + "-correct-spans");
        List<ExportTraceServiceRequest> out = new ArrayList<>();
        try (SyncClock clock = SyncClock.start(settings.serdeConfig());
                KafkaStreams streams = new KafkaStreams(CorrectedSpansTopology.build(topic, output,
                        OtlpFormat.OTLP_PROTO, new SpanTimeCorrection(HostIdentity.DEFAULT, clock::convert,
                                host -> OptionalLong.empty()), Duration.ZERO), p);
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                        "bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                        "isolation.level", "read_committed"), new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            assertTrue(clock.awaitCaughtUp(WAIT));
            assertEquals(Set.of("web", "api", "db"), clock.nodes());
            streams.start();
            consumer.assign(List.of(new TopicPartition(output, 0)));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (out.size() < records && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    out.add(OtlpFormat.OTLP_PROTO.decode(r.value()));
                }
            }
        }
        assertEquals(records, out.size());
        int spans = 0;
        for (ExportTraceServiceRequest r : out) {
            spans += sim.assertCorrected(r);
        }
        assertEquals(800, spans);
    }
}
