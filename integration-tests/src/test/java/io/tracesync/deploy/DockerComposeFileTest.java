package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracesync.cli.TracesyncCommand;
import io.tracesync.streams.Settings;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** docker-compose.yml: the project's versions, a broker both the network and the host reach, health-gated start. */
class DockerComposeFileTest {

    private static final JsonNode SERVICES = DeployFiles.yaml("docker-compose.yml").path("services");
    private static final String JAR_COMMAND = "java -jar " + DockerfileTest.TOOLS_JAR + " ";

    private static JsonNode service(String name) {
        JsonNode s = SERVICES.path(name);
        assertTrue(s.isObject(), "service " + name);
        return s;
    }

    private static String env(String service, String variable) {
        JsonNode v = service(service).path("environment").path(variable);
        assertTrue(v.isValueNode(), service + " sets " + variable);
        return v.asText();
    }

    /** {@code NAME://host:port,...} as name → "host:port". */
    private static Map<String, String> listeners(String value) {
        Map<String, String> m = new HashMap<>();
        for (String l : value.split(",")) {
            String[] parts = l.split("://", 2);
            m.put(parts[0], parts[1]);
        }
        return m;
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    @Test
    void imagesArePinnedToTheProjectsVersions() {
        assertEquals("apache/kafka:" + DeployFiles.pom("pom.xml", "/project/properties/kafka.version"),
                service("kafka").path("image").asText());
        assertEquals("apicurio/apicurio-registry:" + DeployFiles.pom("pom.xml", "/project/properties/apicurio.version"),
                service("registry").path("image").asText());
        assertEquals("tracesync:" + DeployFiles.projectVersion(), service("tracesync").path("image").asText());
        assertEquals(".", service("tracesync").path("build").asText(), "built from the Dockerfile's default target");
        JsonNode tools = service("simulator");
        assertEquals("tracesync-tools:" + DeployFiles.projectVersion(), tools.path("image").asText());
        assertEquals(".", tools.path("build").path("context").asText());
        assertEquals("tools", tools.path("build").path("target").asText(), "the command line, not the application");
        DockerfileTest.FILE.stage("tools");
    }

    @Test
    void kafkaIsOneKraftNodeReachableFromTheNetworkAndTheHost() {
        assertEquals("broker,controller", env("kafka", "KAFKA_PROCESS_ROLES"));
        Map<String, String> listeners = listeners(env("kafka", "KAFKA_LISTENERS"));
        Map<String, String> advertised = listeners(env("kafka", "KAFKA_ADVERTISED_LISTENERS"));
        String protocols = env("kafka", "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP");
        listeners.keySet().forEach(l -> assertTrue(protocols.contains(l + ":"), l + " has a security protocol"));
        String controller = env("kafka", "KAFKA_CONTROLLER_LISTENER_NAMES");
        assertTrue(listeners.containsKey(controller));
        assertFalse(advertised.containsKey(controller), "the controller listener is not advertised");
        assertTrue(env("kafka", "KAFKA_CONTROLLER_QUORUM_VOTERS").endsWith("@kafka" + listeners.get(controller)));
        String bootstrap = env("tracesync", "TRACESYNC_BOOTSTRAP_SERVERS");
        String network = advertised.entrySet().stream().filter(e -> e.getValue().equals(bootstrap))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError(bootstrap + " is advertised"));
        assertEquals(network, env("kafka", "KAFKA_INTER_BROKER_LISTENER_NAME"));
        assertTrue(bootstrap.startsWith("kafka:"), "the service name on the compose network");
        advertised.forEach((name, address) -> {
            String port = address.substring(address.lastIndexOf(':') + 1);
            assertEquals(":" + port, listeners.get(name), name + " listens where it is advertised");
            if (address.startsWith("127.0.0.1:")) {
                assertTrue(texts(service("kafka").path("ports")).contains("127.0.0.1:" + port + ":" + port),
                        "the host listener is published on the same port");
            }
        });
        assertTrue(advertised.values().stream().anyMatch(a -> a.startsWith("127.0.0.1:")), "a listener for the host");
        // A single broker: exactly_once_v2 needs the transaction log with one replica.
        for (String rf : List.of("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
                "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")) {
            assertEquals("1", env("kafka", rf), rf);
        }
    }

    @Test
    void tracesyncStartsOnceBrokerAndRegistryAreHealthy() {
        for (String s : List.of("kafka", "registry", "tracesync")) {
            assertFalse(texts(service(s).path("healthcheck").path("test")).isEmpty(), s + " has a health check");
        }
        for (String dependency : List.of("kafka", "registry")) {
            assertEquals("service_healthy",
                    service("tracesync").path("depends_on").path(dependency).path("condition").asText(), dependency);
        }
        String port = env("tracesync", "TRACESYNC_HTTP_PORT");
        assertEquals("0.0.0.0", env("tracesync", "TRACESYNC_HTTP_HOST"), "reachable from outside the container");
        assertTrue(texts(service("tracesync").path("healthcheck").path("test")).stream()
                .anyMatch(t -> t.contains("http://localhost:" + port + "/health/ready")), "health is readiness");
        assertTrue(texts(service("tracesync").path("ports")).stream().anyMatch(p -> p.endsWith(":" + port)),
                "the HTTP port is published");
        assertEquals("tracesync:" + port, env("tracesync", "TRACESYNC_APPLICATION_SERVER"));
    }

    @Test
    void registryIsApicuriosConfluentApiInMemory() {
        assertEquals("http://registry:8080/apis/ccompat/v7", env("tracesync", "TRACESYNC_SCHEMA_REGISTRY_URL"));
        assertEquals("sql", env("registry", "APICURIO_STORAGE_KIND"));
        assertEquals("h2", env("registry", "APICURIO_STORAGE_SQL_KIND"), "H2 in memory, Apicurio's default");
        assertTrue(texts(service("registry").path("healthcheck").path("test")).stream()
                .anyMatch(t -> t.contains("/health/ready")));
    }

    @Test
    void tracesyncUnderstandsEveryVariableAndKeepsStateOnAVolume() {
        JsonNode env = service("tracesync").path("environment");
        env.fieldNames().forEachRemaining(v -> {
            assertTrue(v.startsWith(ConfigKeys.PREFIX), v);
            ConfigKeys.checked(v);
        });
        assertEquals("bootstrap.servers", ConfigKeys.keyOf("TRACESYNC_BOOTSTRAP_SERVERS"));
        String state = env("tracesync", "TRACESYNC_STATE_DIR");
        assertEquals(DockerfileTest.STATE_DIR, state);
        assertTrue(texts(service("tracesync").path("volumes")).stream().anyMatch(v -> v.endsWith(":" + state)));
    }

    @Test
    void simulatorProfileSimulatesThenImportsIntoTheSameServices() {
        JsonNode sim = service("simulator");
        assertEquals(List.of("simulator"), texts(sim.path("profiles")));
        assertEquals(List.of("sh", "-c"), texts(sim.path("entrypoint")), "the image's entrypoint is java -jar");
        assertEquals("service_healthy", sim.path("depends_on").path("tracesync").path("condition").asText());
        List<String> commands = Arrays.stream(sim.path("command").path(0).asText().split("&&")).map(String::strip)
                .toList();
        assertEquals(2, commands.size(), commands.toString());
        commands.forEach(c -> assertTrue(c.startsWith(JAR_COMMAND), c));
        String[] simulate = commands.get(0).substring(JAR_COMMAND.length()).split("\\s+");
        String[] importCsv = commands.get(1).substring(JAR_COMMAND.length()).split("\\s+");
        CommandLine.ParseResult parsed = TracesyncCommand.commandLine().parseArgs(simulate);
        CommandLine.ParseResult sub = parsed.subcommand();
        assertNotNull(sub);
        assertEquals("simulate", sub.commandSpec().name());
        String out = sub.matchedOptionValue("--out", Path.of("")).toString();
        // `import csv DIR --bootstrap-servers B --schema-registry-url URL` (the import command).
        assertEquals(List.of("import", "csv", out), Arrays.asList(importCsv).subList(0, 3));
        Map<String, String> flags = new HashMap<>();
        for (int i = 3; i + 1 < importCsv.length; i += 2) {
            flags.put(importCsv[i], importCsv[i + 1]);
        }
        assertEquals(Map.of("--bootstrap-servers", env("tracesync", "TRACESYNC_BOOTSTRAP_SERVERS"),
                "--schema-registry-url", env("tracesync", "TRACESYNC_SCHEMA_REGISTRY_URL")), flags);
        assertEquals("no", sim.path("restart").asText(), "a job, not a service");
    }

    /**
     * docker-compose.streams.yml, over docker-compose.yml: the application on the streams protocol with one trace topic
     * the simulator writes, and a broker that allows the session the application asks of the group.
     */
    @Test
    void theStreamsProtocolOverrideGivesSettingsTheApplicationAndBrokerAccept() {
        JsonNode override = DeployFiles.yaml("docker-compose.streams.yml").path("services");
        override.fieldNames().forEachRemaining(name -> service(name));
        Map<String, String> keys = new HashMap<>();
        for (JsonNode environment : List.of(service("tracesync").path("environment"),
                override.path("tracesync").path("environment"))) {
            environment.fields().forEachRemaining(e -> keys.put(ConfigKeys.checked(e.getKey()), e.getValue().asText()));
        }
        Settings settings = Settings.of(keys);
        assertEquals("streams", settings.get("group.protocol"));
        assertEquals(settings.get("traces.topic"),
                Settings.of(Map.of(ConfigKeys.checked("TRACESYNC_TRACES_TOPIC"),
                        override.path("simulator").path("environment").path("TRACESYNC_TRACES_TOPIC").asText()))
                        .get("traces.topic"), "the simulator writes the topic the application reads");
        // the image's rule: KAFKA_A_B is the broker's a.b
        JsonNode broker = override.path("kafka").path("environment");
        long minSession = broker.path("KAFKA_GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS").asLong(45_000);
        long minHeartbeat = broker.path("KAFKA_GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS").asLong(5_000);
        assertTrue(Long.parseLong(settings.get("session.timeout.ms")) >= minSession, "a session the broker allows");
        assertTrue(Long.parseLong(settings.get("heartbeat.interval.ms")) >= minHeartbeat,
                "heartbeats the broker allows");
    }
}
