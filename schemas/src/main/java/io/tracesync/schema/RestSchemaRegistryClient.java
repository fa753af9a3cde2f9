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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A client of the Confluent Schema Registry REST API (also served by Apicurio at {@code /apis/ccompat/v7}): register
 * {@code POST /subjects/{subject}/versions}, look up {@code POST /subjects/{subject}}, fetch
 * {@code GET /schemas/ids/{id}}. Answers are cached both ways; the URLs are tried in order while unreachable. When
 * none answers, or one answers with a transient status, the request is repeated as {@link SerdeConfig.Retries} says,
 * and then fails with a {@link SchemaRegistryUnavailableException}.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {

    /** The registry's media type, sent as the body's type and accepted first. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT = CONTENT_TYPE
            + ", application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> urls;
    private final String authorization;
    private final Duration timeout;
    private final SerdeConfig.Retries retries;
    private final HttpClient http;
    private final Map<SubjectSchema, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    private record SubjectSchema(String subject, Schema schema) {
    }

    public RestSchemaRegistryClient(SerdeConfig config) {
        this.urls = config.urls().stream().map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u).toList();
        this.authorization = config.userInfo() == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString(config.userInfo().getBytes(StandardCharsets.UTF_8));
        this.timeout = config.requestTimeout();
        this.retries = config.retries();
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    }

    @Override
    public int register(String subject, Schema schema) {
        return cachedId(subject, schema, "/subjects/" + encode(subject) + "/versions");
    }

    @Override
    public int id(String subject, Schema schema) {
        return cachedId(subject, schema, "/subjects/" + encode(subject));
    }

    @Override
    public Schema schema(int id) {
        Schema cached = schemas.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send(HttpRequest.newBuilder().GET(), "/schemas/ids/" + id);
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new SerializationException("schema id " + id + " is a " + type + " schema, not Avro");
        }
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text(answer, "schema", "/schemas/ids/" + id));
        } catch (RuntimeException e) {
            throw new SerializationException("schema id " + id + " is not valid Avro: " + e.getMessage(), e);
        }
        Schema raced = schemas.putIfAbsent(id, schema);
        return raced == null ? schema : raced;
    }

    /**
     * Asks the registry once for its subjects, without retries: whether it answers at all.
     *
     * @throws SchemaRegistryUnavailableException if no URL answers, or answers with a transient status
     * @throws SerializationException if it answers with another error (e.g. 401 without credentials)
     */
    public void ping() {
        HttpRequest.Builder request = HttpRequest.newBuilder().GET().header("Accept", ACCEPT).timeout(timeout);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        attempt(request, "/subjects");
    }

    private int cachedId(String subject, Schema schema, String path) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = ids.get(key);
        if (cached != null) {
            return cached;
        }
        String body = JSON.createObjectNode().put("schema", schema.toString()).toString();
        JsonNode answer = send(HttpRequest.newBuilder().header("Content-Type", CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)), path);
        JsonNode id = answer.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new SerializationException("schema registry answered " + path + " without an id: " + answer);
        }
        ids.put(key, id.intValue());
        schemas.putIfAbsent(id.intValue(), schema);
        return id.intValue();
    }

    /** {@link #attempt}, repeated while the registry is unavailable and retries remain. */
    private JsonNode send(HttpRequest.Builder request, String path) {
        request.header("Accept", ACCEPT).timeout(timeout);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        for (int retry = 1; ; retry++) {
            try {
                return attempt(request, path);
            } catch (SchemaRegistryUnavailableException e) {
                if (retry > retries.max()) {
                    throw e;
                }
                try {
                    Thread.sleep(retries.before(retry).toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * The JSON answer of the first registry that answers; a SerializationException with its answer if not 2xx,
     * a {@link SchemaRegistryUnavailableException} if none answers or the answer is transient.
     */
    private JsonNode attempt(HttpRequest.Builder request, String path) {
        IOException last = null;
        for (String url : urls) {
            HttpResponse<String> response;
            try {
                response = http.send(request.uri(URI.create(url + path)).build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                last = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SerializationException("interrupted while calling the schema registry " + url, e);
            }
            if (response.statusCode() / 100 != 2) {
                String message = "schema registry " + url + path + " answered " + response.statusCode() + ": "
                        + response.body();
                throw SchemaRegistryUnavailableException.isTransient(response.statusCode())
                        ? new SchemaRegistryUnavailableException(message, null) : new SerializationException(message);
            }
            try {
                return JSON.readTree(response.body());
            } catch (IOException e) {
                throw new SerializationException("schema registry " + url + path + " answered no JSON: "
                        + response.body(), e);
            }
        }
        throw new SchemaRegistryUnavailableException("no schema registry reachable at " + urls + ": " + last, last);
    }

    private static String text(JsonNode answer, String field, String path) {
        JsonNode value = answer.get(field);
        if (value == null || !value.isTextual()) {
            throw new SerializationException("schema registry answered " + path + " without '" + field + "': "
                    + answer);
        }
        return value.asText();
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
