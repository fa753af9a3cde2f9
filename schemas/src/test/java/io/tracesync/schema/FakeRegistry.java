package io.tracesync.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Confluent-API schema registry in the test JVM on 127.0.0.1, under Apicurio's {@code /apis/ccompat/v7}. It
 * answers 415 to a POST that is not {@code application/vnd.schemaregistry.v1+json} and 400 to a body other than
 * {@code {"schema": ...}}, and records every request.
 */
final class FakeRegistry implements AutoCloseable {

    static final String PREFIX = "/apis/ccompat/v7";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received: method, raw path below the prefix, Content-Type, Authorization, body. */
    record Request(String method, String path, String contentType, String authorization, String body) {
    }

    private final HttpServer server;
    private final List<Request> requests = new ArrayList<>();
    private final List<String> schemas = new ArrayList<>();
    private final Map<String, List<Integer>> subjects = new HashMap<>();
    private volatile long delayMillis;
    private volatile int failStatus;

    FakeRegistry() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(PREFIX, this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PREFIX;
    }

    synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Makes every later answer wait this long. */
    void delay(long millis) {
        delayMillis = millis;
    }

    /** Makes every later answer this error status (0: answer normally again). */
    void failWith(int status) {
        failStatus = status;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getRawPath().substring(PREFIX.length());
            Request request = new Request(exchange.getRequestMethod(), path,
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"), body);
            synchronized (this) {
                requests.add(request);
            }
            Thread.sleep(delayMillis);
            Answer answer = failStatus == 0 ? answer(request) : error(failStatus, failStatus, "failing on purpose");
            byte[] bytes = answer.json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", RestSchemaRegistryClient.CONTENT_TYPE);
            exchange.sendResponseHeaders(answer.status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Answer(int status, String json) {
    }

    private synchronized Answer answer(Request r) throws IOException {
        String[] parts = r.path().split("/");
        if (r.method().equals("GET") && r.path().matches("/schemas/ids/\\d+")) {
            int id = Integer.parseInt(parts[3]);
            return id >= 1 && id <= schemas.size()
                    ? new Answer(200, JSON.createObjectNode().put("schema", schemas.get(id - 1)).toString())
                    : error(404, 40403, "Schema " + id + " not found");
        }
        if (!r.method().equals("POST") || !r.path().startsWith("/subjects/")) {
            return error(404, 404, "HTTP 404 Not Found");
        }
        if (!RestSchemaRegistryClient.CONTENT_TYPE.equals(r.contentType())) {
            return error(415, 415, "HTTP 415 Unsupported Media Type");
        }
        JsonNode body = JSON.readTree(r.body());
        if (body.size() != 1 || !body.path("schema").isTextual()) {
            return error(400, 400, "expected {\"schema\": \"...\"}");
        }
        String schema = body.get("schema").asText();
        String subject = java.net.URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
        if (parts.length == 4 && parts[3].equals("versions")) {
            int id = schemas.indexOf(schema) + 1;
            if (id == 0) {
                schemas.add(schema);
                id = schemas.size();
            }
            List<Integer> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
            if (!versions.contains(id)) {
                versions.add(id);
            }
            return new Answer(200, "{\"id\":" + id + "}");
        }
        List<Integer> versions = subjects.get(subject);
        if (versions == null) {
            return error(404, 40401, "Subject '" + subject + "' not found.");
        }
        int id = schemas.indexOf(schema) + 1;
        if (!versions.contains(id)) {
            return error(404, 40403, "Schema not found");
        }
        return new Answer(200, JSON.createObjectNode().put("subject", subject)
                .put("version", versions.indexOf(id) + 1).put("id", id).put("schema", schema).toString());
    }

    private static Answer error(int status, int code, String message) {
        return new Answer(status, JSON.createObjectNode().put("error_code", code).put("message", message).toString());
    }
}
