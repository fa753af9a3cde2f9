package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.TraceEvent;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RestSchemaRegistryClientTest {

    private static final String TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Schema EVENT = TraceEvent.getClassSchema();

    private final FakeRegistry registry;

    RestSchemaRegistryClientTest() throws IOException {
        registry = new FakeRegistry();
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private RestSchemaRegistryClient client(String... config) {
        Map<String, String> map = new HashMap<>();
        map.put("schema.registry.url", registry.url());
        map.put("max.retries", "0");
        for (int i = 0; i < config.length; i += 2) {
            map.put(config[i], config[i + 1]);
        }
        return new RestSchemaRegistryClient(SerdeConfig.parse(map));
    }

    @Test
    void registerPostsTheSchemaToTheSubjectsVersions() throws IOException {
        RestSchemaRegistryClient client = client();
        assertEquals(1, client.register("traces.n1-value", EVENT));
        FakeRegistry.Request r = registry.requests().get(0);
        assertEquals("POST", r.method());
        assertEquals("/subjects/traces.n1-value/versions", r.path());
        assertEquals(TYPE, r.contentType());
        assertEquals(new ObjectMapper().createObjectNode().put("schema", EVENT.toString()),
                new ObjectMapper().readTree(r.body()));
    }

    @Test
    void idsAndSchemasAreCachedBothWays() {
        RestSchemaRegistryClient client = client();
        int id = client.register("traces.n1-value", EVENT);
        assertEquals(id, client.register("traces.n1-value", EVENT));
        assertEquals(EVENT, client.schema(id));
        assertEquals(1, registry.requests().size(), "one POST, then the caches");

        RestSchemaRegistryClient reader = client();
        assertEquals(EVENT, reader.schema(id));
        assertEquals(EVENT, reader.schema(id));
        List<FakeRegistry.Request> requests = registry.requests();
        assertEquals(2, requests.size());
        assertEquals("GET", requests.get(1).method());
        assertEquals("/schemas/ids/" + id, requests.get(1).path());
    }

    @Test
    void lookupPostsToTheSubjectWithoutRegistering() {
        RestSchemaRegistryClient client = client();
        SerializationException e = assertThrows(SerializationException.class,
                () -> client.id("traces.n1-value", EVENT));
        assertTrue(e.getMessage().contains("404") && e.getMessage().contains("40401"), e.getMessage());
        FakeRegistry.Request r = registry.requests().get(0);
        assertEquals("POST", r.method());
        assertEquals("/subjects/traces.n1-value", r.path());
        assertEquals(TYPE, r.contentType());

        int id = client().register("traces.n1-value", EVENT);
        assertEquals(id, client.id("traces.n1-value", EVENT));
        assertThrows(SerializationException.class, () -> client.id("traces.n1-value", LinkId.getClassSchema()));
    }

    @Test
    void subjectsAreEscapedInThePath() {
        client().register("a b/c", EVENT);
        assertEquals("/subjects/a%20b%2Fc/versions", registry.requests().get(0).path());
    }

    @Test
    void unknownIdCarriesTheRegistrysAnswer() {
        SerializationException e = assertThrows(SerializationException.class, () -> client().schema(42));
        assertTrue(e.getMessage().contains("40403") && e.getMessage().contains("Schema 42 not found"),
                e.getMessage());
    }

    @Test
    void basicAuthHeaderFromUserInfoAndNoSecretInErrors() {
        RestSchemaRegistryClient client = client("basic.auth.credentials.source", "USER_INFO",
                "basic.auth.user.info", "alice:s3cret");
        client.register("s", EVENT);
        assertEquals("Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes()),
                registry.requests().get(0).authorization());
        SerializationException e = assertThrows(SerializationException.class, () -> client.schema(9));
        assertFalse(e.getMessage().contains("s3cret"));
        client().schema(1);
        assertNull(registry.requests().get(2).authorization(), "no credentials configured, no header");
    }

    @Test
    void urlsAreTriedInOrder() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(SerdeConfig.parse(Map.of(
                "schema.registry.url", "http://127.0.0.1:" + closed + "/apis/ccompat/v7, " + registry.url() + "/")));
        assertEquals(1, client.register("s", EVENT));
        RestSchemaRegistryClient none = new RestSchemaRegistryClient(SerdeConfig.parse(Map.of(
                "schema.registry.url", "http://127.0.0.1:" + closed, "max.retries", "0")));
        SerializationException e = assertThrows(SchemaRegistryUnavailableException.class, () -> none.schema(1));
        assertTrue(e.getMessage().contains("no schema registry reachable"), e.getMessage());
    }

    @Test
    void transientAnswersAreUnavailabilityAndOthersAreNot() {
        RestSchemaRegistryClient client = client();
        for (int status : new int[] {408, 429, 502, 503, 504}) {
            registry.failWith(status);
            SerializationException e = assertThrows(SerializationException.class, () -> client.schema(1));
            assertTrue(SchemaRegistryUnavailableException.isCause(e), status + ": " + e);
            assertTrue(e.getMessage().contains(Integer.toString(status)), e.getMessage());
        }
        for (int status : new int[] {400, 401, 403, 404, 409, 422, 500}) {
            registry.failWith(status);
            SerializationException e = assertThrows(SerializationException.class, () -> client.schema(1));
            assertFalse(SchemaRegistryUnavailableException.isCause(e), status + ": " + e);
        }
        registry.failWith(0);
        assertFalse(SchemaRegistryUnavailableException.isCause(
                assertThrows(SerializationException.class, () -> client.schema(1))), "unknown id 1");
        assertEquals(1, client.register("s", EVENT));
        assertEquals(EVENT, client.schema(1));
    }

    @Test
    void retriesBridgeAShortOutage() throws InterruptedException {
        client().register("s", EVENT);
        registry.failWith(503);
        Thread heal = new Thread(() -> {
            try {
                Thread.sleep(400);
            } catch (InterruptedException e) {
                return;
            }
            registry.failWith(0);
        });
        heal.start();
        assertEquals(EVENT, client("max.retries", "5", "retries.wait.ms", "100").schema(1));
        heal.join();
        long attempts = registry.requests().stream().filter(r -> r.method().equals("GET")).count();
        assertTrue(attempts >= 3 && attempts <= 6, attempts + " GETs: 100, 200, 400 ms waits reach past 400 ms");
    }

    @Test
    void retriesEndInUnavailabilityAndOnlyUnavailabilityIsRetried() {
        registry.failWith(503);
        assertThrows(SchemaRegistryUnavailableException.class,
                () -> client("max.retries", "2", "retries.wait.ms", "10").schema(1));
        assertEquals(3, registry.requests().size(), "one attempt and two retries");
        registry.failWith(0);
        assertThrows(SerializationException.class, () -> client("max.retries", "2", "retries.wait.ms", "10")
                .schema(1));
        assertEquals(4, registry.requests().size(), "an unknown id is not retried");
    }

    @Test
    void theCauseIsFoundThroughWrappers() {
        Exception unavailable = new SchemaRegistryUnavailableException("down", null);
        assertTrue(SchemaRegistryUnavailableException.isCause(new RuntimeException(new RuntimeException(unavailable))));
        assertFalse(SchemaRegistryUnavailableException.isCause(new RuntimeException(new SerializationException("no"))));
        assertFalse(SchemaRegistryUnavailableException.isCause(null));
    }

    @Test
    void slowAnswersTimeOut() {
        registry.delay(2000);
        RestSchemaRegistryClient client = client("schema.registry.request.timeout.ms", "200");
        long start = System.nanoTime();
        assertThrows(SchemaRegistryUnavailableException.class, () -> client.schema(1));
        assertTrue(System.nanoTime() - start < 1_500_000_000L);
    }

    /** {@code event} as a serde of its own writes it to {@code traces.n1}, registering its schema. */
    private byte[] written(TraceEvent event) {
        SpecificAvroSerde<TraceEvent> writer = new SpecificAvroSerde<>(TraceEvent.class);
        writer.configure(Map.of("schema.registry.url", registry.url()), false);
        return writer.serializer().serialize("traces.n1", event);
    }

    private List<String> requests() {
        return registry.requests().stream().map(r -> r.method() + " " + r.path()).toList();
    }

    @Test
    void serdeRoundTripsThroughTheRegistry() {
        TraceEvent event = TraceEvent.newBuilder().setNode("n1").setTsNs(1L).setDirection(Direction.RECV)
                .setSeq(2L).setAckSeq(3L).setFlags(16).build();
        byte[] bytes = written(event);

        SpecificAvroSerde<TraceEvent> reader = new SpecificAvroSerde<>(TraceEvent.class);
        reader.configure(Map.of("schema.registry.url", registry.url(), "auto.register.schemas", "false"), false);
        assertEquals(event, reader.deserializer().deserialize("traces.n1", bytes));
        assertEquals(WireFormat.schemaId(bytes),
                WireFormat.schemaId(reader.serializer().serialize("traces.n1", event)));
        assertEquals(List.of("POST /subjects/traces.n1-value/versions", "GET /schemas/ids/1",
                "POST /subjects/traces.n1-value"), requests());
    }

    @Test
    void aSerdeThatLearnedItsIdReadsWithoutTheRegistry() {
        TraceEvent event = TraceEvent.newBuilder().setNode("n2").setTsNs(4L).setDirection(Direction.SEND)
                .setSeq(5L).setAckSeq(6L).setFlags(24).build();
        byte[] bytes = written(event);

        SpecificAvroSerde<TraceEvent> reader = new SpecificAvroSerde<>(TraceEvent.class);
        reader.configure(Map.of("schema.registry.url", registry.url(), "max.retries", "0"), false);
        assertEquals(WireFormat.schemaId(bytes), reader.schemaId("traces.n1"));
        registry.close();
        assertEquals(event, reader.deserializer().deserialize("traces.n1", bytes));
        assertEquals(List.of("POST /subjects/traces.n1-value/versions", "POST /subjects/traces.n1-value/versions"),
                requests(), "the reader registered once and never fetched the schema");
    }
}
