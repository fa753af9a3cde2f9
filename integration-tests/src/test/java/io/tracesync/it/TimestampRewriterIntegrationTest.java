package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.Direction;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.client.example.EventRewriter;
import io.tracesync.client.example.RewriterOptions;
import io.tracesync.client.example.TimestampRewriter;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.schema.SpecificAvroSerializer;
import io.tracesync.streams.TopicCreator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example {@link TimestampRewriter} on the real broker and registry: a small trace topic copied with its
 * timestamps in reference time and the bounds in headers; events without a factor and undecodable records passed
 * through with their status; a second run of the same group resumes after the first.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class TimestampRewriterIntegrationTest {

    private final String id = "rewriter-" + UUID.randomUUID();
    private final String factors = "sync.factors-" + id;
    private final String traces = "traces-" + id;
    private final String output = "rewritten-" + id;

    @Test
    void rewritesATraceTopicToReferenceTime() throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers",
                SharedKafkaEnvironment.bootstrapServers()))) {
            TopicCreator.create(admin, List.of(new NewTopic(factors, 2, (short) 1), new NewTopic(traces, 2, (short) 1),
                    new NewTopic(output, 2, (short) 1)));
        }
        // b: t_ref = t + 1 ms + 0.4 ns, up 2 ns, down 3 ns; a is the reference
        try (OrderedProducer<String, SyncFactor> out = new OrderedProducer<>(config(), new StringSerializer(),
                serializer(SyncFactor.class))) {
            out.send(new ProducerRecord<>(factors, "a", factor("a", 0.0, 0L)));
            out.send(new ProducerRecord<>(factors, "b", factor("b", 1_000_000.4, 2_000L)));
            out.flush();
        }
        List<TraceEvent> events = new ArrayList<>();
        try (OrderedProducer<byte[], byte[]> out = new OrderedProducer<>(config(), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            SpecificAvroSerializer<TraceEvent> values = serializer(TraceEvent.class);
            for (int i = 0; i < 30; i++) {
                TraceEvent e = TraceEvent.newBuilder().setNode(List.of("a", "b", "z").get(i % 3))
                        .setTsNs(1_700_000_000_000_000_000L + i * 1_000_003L).setDirection(Direction.SEND)
                        .setSeq(i).setAckSeq(0).setFlags(16).build();
                events.add(e);
                out.send(new ProducerRecord<>(traces, i % 2, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        values.serialize(traces, e)));
            }
            out.send(new ProducerRecord<>(traces, 0, null, "garbage".getBytes(StandardCharsets.UTF_8)));
            out.flush();
        }

        assertEquals(31, rewriter().run());
        List<ConsumerRecord<byte[], byte[]>> rewritten = read(output, 31);
        SpecificAvroDeserializer<TraceEvent> reader = new SpecificAvroDeserializer<>(TraceEvent.class);
        reader.configure(config(), false);
        Map<String, Integer> statuses = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : rewritten) {
            String status = header(r, EventRewriter.STATUS);
            statuses.merge(status, 1, Integer::sum);
            if (status.equals("undecodable")) {
                assertEquals("garbage", new String(r.value(), StandardCharsets.UTF_8));
                continue;
            }
            TraceEvent e = reader.deserialize(output, r.value());
            TraceEvent in = events.get((int) e.getSeq());
            assertEquals("k" + e.getSeq(), new String(r.key(), StandardCharsets.UTF_8));
            switch (in.getNode()) {
                case "a" -> assertEquals(in.getTsNs(), e.getTsNs());
                case "b" -> {
                    long ref = in.getTsNs() + 1_000_000;
                    assertEquals(ref, e.getTsNs());
                    assertEquals(Long.toString(in.getTsNs()), header(r, EventRewriter.LOCAL_NS));
                    assertEquals(Long.toString(ref - 3), header(r, EventRewriter.LOWER_NS)); // .4 - 3 rounded down
                    assertEquals(Long.toString(ref + 3), header(r, EventRewriter.UPPER_NS)); // .4 + 2 rounded up
                    assertEquals("a", header(r, EventRewriter.REFERENCE));
                }
                default -> {
                    assertEquals("no-factor", status);
                    assertEquals(in, e);
                }
            }
        }
        assertEquals(Map.of("converted", 20, "no-factor", 10, "undecodable", 1), statuses);
        assertEquals(0, rewriter().run(), "the second run of the group did not resume after the first");
    }

    private TimestampRewriter rewriter() throws Exception {
        return new TimestampRewriter(RewriterOptions.parse("--input", traces, "--output", output, "--to-end",
                "--group-id", id, "--factors-topic", factors, "--catch-up-seconds", "60",
                "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl()));
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
        List<ConsumerRecord<byte[], byte[]>> out = AwaitedRecords.read(config(), topic, count,
                Duration.ofSeconds(60), Duration.ZERO);
        assertTrue(out.size() == count, out.size() + " records in " + topic);
        return out;
    }

    private static SyncFactor factor(String node, double offset, Long upPs) {
        return SyncFactor.newBuilder().setNode(node).setComponent("a").setReference("a")
                .setMap(new ClockMap(1.0, 0.0, offset, 0.0)).setUpPs(upPs).setDownPs(upPs == null ? null : 3_000L)
                .setBoundNs(null).setValidFromMs(0).setVersion(1).build();
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        return new String(r.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> config() {
        return Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                "schema.registry.url", SharedKafkaEnvironment.registryUrl());
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> SpecificAvroSerializer<T> serializer(
            Class<T> type) {
        SpecificAvroSerializer<T> s = new SpecificAvroSerializer<>(type);
        s.configure(config(), false);
        return s;
    }
}
