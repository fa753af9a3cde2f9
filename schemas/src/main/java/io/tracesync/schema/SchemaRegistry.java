package io.tracesync.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/** The Confluent Schema Registry REST API (register, schema by id), cached; or an in-memory one for mock:// URLs. */
public abstract class SchemaRegistry {

    private static final Map<String, SchemaRegistry> MOCKS = new ConcurrentHashMap<>();
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    public static SchemaRegistry at(String url) {
        if (url.startsWith("mock://")) {
            return MOCKS.computeIfAbsent(url, u -> new InMemory());
        }
        return new Http(url);
    }

    public int register(String subject, Schema schema) {
        return ids.computeIfAbsent(subject + '\n' + schema, k -> {
            int id = doRegister(subject, schema);
            schemas.putIfAbsent(id, schema);
            return id;
        });
    }

    /** The schema of an id, or null if the registry does not know it. */
    public Schema schema(int id) {
        Schema s = schemas.get(id);
        if (s == null) {
            s = doSchema(id);
            if (s != null) {
                schemas.put(id, s);
            }
        }
        return s;
    }

    abstract int doRegister(String subject, Schema schema);

    abstract Schema doSchema(int id);

    private static final class InMemory extends SchemaRegistry {
        private final List<Schema> all = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        synchronized int doRegister(String subject, Schema schema) {
            int i = all.indexOf(schema);
            if (i < 0) {
                all.add(schema);
                i = all.size() - 1;
            }
            return i + 1;
        }

        @Override
        Schema doSchema(int id) {
            return id >= 1 && id <= all.size() ? all.get(id - 1) : null;
        }
    }

    private static final class Http extends SchemaRegistry {
        private static final ObjectMapper JSON = new ObjectMapper();
        private static final String TYPE = "application/vnd.schemaregistry.v1+json";
        private final String base;
        private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        Http(String url) {
            this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }

        @Override
        int doRegister(String subject, Schema schema) {
            String body = JSON.createObjectNode().put("schema", schema.toString()).toString();
            JsonNode r = call(HttpRequest.newBuilder(URI.create(base + "/subjects/"
                    + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions"))
                    .header("Content-Type", TYPE).POST(HttpRequest.BodyPublishers.ofString(body)).build(), subject);
            return r.get("id").asInt();
        }

        @Override
        Schema doSchema(int id) {
            JsonNode r = call(HttpRequest.newBuilder(URI.create(base + "/schemas/ids/" + id)).GET().build(), null);
            return r == null ? null : new Schema.Parser().parse(r.get("schema").asText());
        }

        private JsonNode call(HttpRequest request, String subject) {
            try {
                HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 404 && subject == null) {
                    return null;
                }
                if (r.statusCode() / 100 != 2) {
                    throw new SerializationException("schema registry " + request.uri() + " answered "
                            + r.statusCode() + ": " + r.body());
                }
                return JSON.readTree(r.body());
            } catch (IOException e) {
                throw new SerializationException("schema registry " + base + " unreachable: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SerializationException("interrupted", e);
            }
        }
    }
}
