package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.avro.Direction;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.schema.SpecificAvroSerde;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Our serde against a client we did not write: Confluent's Python client (Debian's python3-confluent-kafka, run by
 * src/test/python/confluent_interop.py) on the shared broker and registry, both ways.
 */
@ExtendWith(SharedKafkaEnvironment.class)
@Tag("python")
class ConfluentPythonInteropTest {

    private static final String PYTHON = "/usr/bin/python3";
    private static final String PACKAGES = "python3-confluent-kafka python3-avro python3-requests";
    private static final Path SCRIPT = Path.of("src/test/python/confluent_interop.py");
    private static final Path SCHEMA = Path.of("../schemas/src/main/avro/TraceEvent.avsc");
    private static final int COUNT = 25;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void pythonClientInstalled() throws IOException, InterruptedException {
        Result check = python("", "check");
        assertEquals(0, check.code, () -> "Confluent's Python client cannot be imported by " + PYTHON
                + "; install it with: apt-get install -y " + PACKAGES + " (.ci/run does), or leave this test out: "
                + "-DexcludedGroups=python\n" + check.stderr);
    }

    @Test
    void pythonDecodesWhatJavaWrote() throws IOException, InterruptedException {
        String topic = "interop.java-to-python." + UUID.randomUUID();
        List<TraceEvent> events = events(new Random(1));
        try (OrderedProducer<SegmentKey, TraceEvent> producer = new OrderedProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaEnvironment.bootstrapServers()),
                serde(SegmentKey.class, true).serializer(), serde(TraceEvent.class, false).serializer())) {
            for (TraceEvent e : events) {
                producer.send(new ProducerRecord<>(topic, key(e), e));
            }
            producer.flush();
        }
        Result consumed = python("", "consume", SharedKafkaEnvironment.registryUrl(),
                SharedKafkaEnvironment.bootstrapServers(), topic, String.valueOf(COUNT), "60");
        assertEquals(0, consumed.code, consumed.stderr);
        List<TraceEvent> decoded = new ArrayList<>();
        for (String line : consumed.stdout.lines().toList()) {
            JsonNode record = JSON.readTree(line);
            TraceEvent event = fromJson(record.get("value"), TraceEvent.class);
            assertEquals(key(event), fromJson(record.get("key"), SegmentKey.class));
            decoded.add(event);
        }
        assertEquals(Set.copyOf(events), Set.copyOf(decoded));
        assertEquals(COUNT, decoded.size());
    }

    @Test
    void javaDecodesWhatPythonWrote() throws IOException, InterruptedException {
        String topic = "interop.python-to-java." + UUID.randomUUID();
        List<TraceEvent> events = events(new Random(2));
        String lines = events.stream().map(e -> toJson(e).toString()).collect(Collectors.joining("\n", "", "\n"));
        Result produced = python(lines, "produce", SharedKafkaEnvironment.registryUrl(),
                SharedKafkaEnvironment.bootstrapServers(), topic, SCHEMA.toString());
        assertEquals(0, produced.code, produced.stderr);

        List<TraceEvent> read = new ArrayList<>();
        try (KafkaConsumer<SegmentKey, TraceEvent> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaEnvironment.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "interop-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                serde(SegmentKey.class, true).deserializer(), serde(TraceEvent.class, false).deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (read.size() < COUNT && System.nanoTime() < deadline) {
                for (ConsumerRecord<SegmentKey, TraceEvent> r : consumer.poll(Duration.ofMillis(500))) {
                    assertEquals(null, r.key());
                    read.add(r.value());
                }
            }
        }
        assertEquals(Set.copyOf(events), Set.copyOf(read));
        assertEquals(COUNT, read.size());
    }

    private static <T extends SpecificRecord> Serde<T> serde(Class<T> type, boolean isKey) {
        Serde<T> serde = new SpecificAvroSerde<>(type);
        serde.configure(Map.of("schema.registry.url", SharedKafkaEnvironment.registryUrl()), isKey);
        return serde;
    }

    /** Distinct events with every optional field both set and null, IPv4 and IPv6, extreme values. */
    private static List<TraceEvent> events(Random random) {
        List<TraceEvent> events = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            boolean full = i % 2 == 0;
            byte[] address = new byte[i % 4 == 0 ? 16 : 4];
            random.nextBytes(address);
            events.add(TraceEvent.newBuilder().setNode(i % 5 == 0 ? "nœud-" + i + "-π" : "n" + i)
                    .setTsNs(i == 1 ? Long.MIN_VALUE : i == 2 ? Long.MAX_VALUE : random.nextLong())
                    .setDirection(i % 3 == 0 ? Direction.RECV : Direction.SEND)
                    .setSaddr(full ? ByteBuffer.wrap(address) : null).setDaddr(full ? ByteBuffer.wrap(address) : null)
                    .setSport(full ? random.nextInt(65536) : null).setDport(full ? 443 : null)
                    .setSeq(random.nextLong() & 0xFFFFFFFFL).setAckSeq(random.nextLong() & 0xFFFFFFFFL)
                    .setFlags(random.nextInt(256)).setLength(full ? random.nextInt(65536) : null).build());
        }
        return events;
    }

    private static SegmentKey key(TraceEvent e) {
        return new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags());
    }

    /** A flat record as the script's JSON: field names of the schema, bytes as hex, enums as their symbol. */
    private static ObjectNode toJson(SpecificRecord record) {
        ObjectNode json = JSON.createObjectNode();
        for (Schema.Field f : record.getSchema().getFields()) {
            Object v = record.get(f.pos());
            if (v instanceof ByteBuffer b) {
                v = HEX.formatHex(b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit());
            }
            json.set(f.name(), v == null ? json.nullNode() : JSON.valueToTree(v instanceof Enum<?> ? v.toString() : v));
        }
        return json;
    }

    private static <T extends SpecificRecord> T fromJson(JsonNode json, Class<T> type) {
        Schema schema = SpecificData.get().getSchema(type);
        T record = type.cast(SpecificData.get().newRecord(null, schema));
        for (Schema.Field f : schema.getFields()) {
            JsonNode v = json.get(f.name());
            Schema s = f.schema().isNullable() && f.schema().isUnion() ? f.schema().getTypes().get(1) : f.schema();
            record.put(f.pos(), v == null || v.isNull() ? null : switch (s.getType()) {
                case STRING -> v.asText();
                case LONG -> v.longValue();
                case INT -> v.intValue();
                case BYTES -> ByteBuffer.wrap(HEX.parseHex(v.asText()));
                case ENUM -> SpecificData.get().createEnum(v.asText(), s);
                default -> throw new IllegalArgumentException("not a flat field: " + f);
            });
        }
        return record;
    }

    private record Result(int code, String stdout, String stderr) {
    }

    private static Result python(String stdin, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing: apt-get install -y " + PACKAGES
                + ", or leave this test out: -DexcludedGroups=python");
        List<String> command = new ArrayList<>(List.of(PYTHON, SCRIPT.toString()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile("confluent-interop", ".err");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("python did not finish in 120 s: " + command);
        }
        String stderr = Files.readString(err);
        Files.delete(err);
        return new Result(p.exitValue(), out, stderr);
    }
}
