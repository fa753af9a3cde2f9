package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starts the real environment (local processes on a machine without Docker) and uses both services. */
class KafkaEnvironmentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PID = Pattern.compile("\\(pid (\\d+)\\)");

    @Test
    void brokerTakesTransactionsRegistryKeepsSchemasAndCloseStopsBoth(@TempDir Path workDir) throws Exception {
        List<ProcessHandle> started = new ArrayList<>();
        long began = System.nanoTime();
        try (KafkaEnvironment environment = KafkaEnvironment.start(workDir)) {
            System.out.printf("%s started in %d ms%n", environment.description(),
                    (System.nanoTime() - began) / 1_000_000);
            Matcher pids = PID.matcher(environment.description());
            while (pids.find()) {
                Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(pids.group(1)));
                assertTrue(process.map(ProcessHandle::isAlive).orElse(false), environment.description());
                started.add(process.orElseThrow());
            }

            assertEquals("hello", roundTripTransactionally(environment.bootstrapServers()));
            assertEquals("\"string\"", registerAndReadBack(environment.registryUrl()));
        }
        for (ProcessHandle process : started) {
            assertFalse(process.isAlive(), "pid " + process.pid() + " still runs after close()");
        }
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList());
    }

    private static String roundTripTransactionally(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get();
        }
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "environment-test",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("t", "k", "hello"));
            producer.commitTransaction();
        }
        Map<String, Object> consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "environment-test",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            consumer.subscribe(Set.of("t"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    return record.value();
                }
            }
        }
        throw new AssertionError("the committed record did not arrive within 30 s");
    }

    private static String registerAndReadBack(String registryUrl) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> registered = http.send(HttpRequest.newBuilder(
                        URI.create(registryUrl + "/subjects/t-value/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"schema\":\"\\\"string\\\"\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, registered.statusCode(), registered.body());
        long id = JSON.readTree(registered.body()).get("id").asLong();

        HttpResponse<String> read = http.send(HttpRequest.newBuilder(
                URI.create(registryUrl + "/schemas/ids/" + id)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, read.statusCode(), read.body());
        JsonNode schema = JSON.readTree(read.body()).get("schema");
        return schema.asText();
    }
}
