package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The factors topic's schema evolves so that services reading it keep working: a registry holding the released
 * {@code SyncFactor} under FULL compatibility (old readers read new data and new readers old data) accepts the
 * current schema — and refuses a schema that would break them, so the check is the registry's own — and a record
 * written with the current schema reads with the released one.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class FactorSchemaEvolutionTest {

    private static final Path RELEASED = Path.of("..", "schemas", "src", "test", "resources", "released", "v1");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aRegistryHoldingTheReleasedFactorSchemaUnderFullCompatibilityTakesTheCurrentOne() throws Exception {
        String subject = "it-evolution-" + UUID.randomUUID() + "-value";
        Schema released = released();
        HttpResponse<String> first = register(subject, released.toString());
        assertEquals(200, first.statusCode(), first.body());
        HttpResponse<String> full = send("PUT", "/config/" + subject, "{\"compatibility\":\"FULL\"}");
        assertEquals(200, full.statusCode(), full.body());

        String current = SyncFactor.getClassSchema().toString();
        String breaking = current.substring(0, current.lastIndexOf(']')) + ",{\"name\":\"extra\",\"type\":\"long\"}]}";
        HttpResponse<String> refused = register(subject, breaking);
        assertEquals(409, refused.statusCode(), "a field without default breaks new readers of old data: "
                + refused.body());
        HttpResponse<String> accepted = register(subject, current);
        assertEquals(200, accepted.statusCode(), accepted.body());

        SyncFactor f = SyncFactor.newBuilder().setNode("n1").setComponent("n0").setReference("n0")
                .setMap(new ClockMap(1.0, 1e-20, -5.0, 0.0)).setUpPs(1_000L).setDownPs(2_000L).setBoundNs(2.0)
                .setAnchorNs(1_700_000_000_000_000_000L).setGrowthAbove(1e-7).setGrowthBelow(2e-7)
                .setEvaluatedAtNs(1_700_000_000_000_000_005L).setMethod("all-links").setTreeUpPs(3_000L)
                .setTreeDownPs(4_000L).setValidFromMs(1L).setVersion(7L).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<>(SyncFactor.class).write(f, encoder);
        encoder.flush();
        GenericRecord old = new GenericDatumReader<GenericRecord>(SyncFactor.getClassSchema(), released)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertEquals("n1", old.get("node").toString());
        assertEquals(1_000L, old.get("up_ps"));
        assertEquals(7L, old.get("version"));
        assertNull(old.getSchema().getField("anchor_ns"), "the released reader does not know the new fields");
    }

    /** The released SyncFactor schema, the named types it uses inlined. */
    private static Schema released() throws Exception {
        Schema.Parser parser = new Schema.Parser();
        parser.parse(RELEASED.resolve("ClockMap.avsc").toFile());
        return parser.parse(RELEASED.resolve("SyncFactor.avsc").toFile());
    }

    private HttpResponse<String> register(String subject, String schema) throws Exception {
        return send("POST", "/subjects/" + subject + "/versions", JSON.writeValueAsString(Map.of("schema", schema)));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(SharedKafkaEnvironment.registryUrl() + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
