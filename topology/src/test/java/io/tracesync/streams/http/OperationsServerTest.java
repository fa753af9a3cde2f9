package io.tracesync.streams.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.Settings;
import io.tracesync.streams.metrics.AppMetrics;
import io.tracesync.streams.metrics.PipelineStats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live view's static files: its page and script, and the WebJars it loads; no path leaves the WebJars. The
 * port taken with {@code http.port=0} is told in the port file.
 */
class OperationsServerTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static KafkaStreams streams;
    private static AppMetrics metrics;
    private static OperationsServer server;
    private static Path portFile;

    /** The streams are created, never started: no broker is needed to serve files. */
    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        portFile = dir.resolve("http.port");
        Files.writeString(portFile, "1\n"); // a stale file from an earlier run is replaced
        Settings settings = Settings.of(Map.of("http.port", "0", "bootstrap.servers", "127.0.0.1:1",
                "state.dir", dir.toString(), "http.port.file", portFile.toString()));
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        streams = new KafkaStreams(builder.build(), settings.streamsProperties());
        metrics = new AppMetrics(streams, new PipelineStats());
        server = OperationsServer.start(settings, streams, metrics);
    }

    @AfterAll
    static void stop() {
        server.close();
        metrics.close();
        streams.close();
    }

    @Test
    void tellsThePortItTookInThePortFile() throws Exception {
        assertEquals(server.port() + "\n", Files.readString(portFile));
        assertEquals(200, get("/").statusCode());
    }

    @Test
    void servesTheLiveViewItsScriptAndD3() throws Exception {
        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("src=\"forest.js\""), "relative URLs: the page may be behind a prefix");
        HttpResponse<String> forest = get("/forest.js");
        assertEquals(200, forest.statusCode());
        assertEquals("text/javascript; charset=utf-8", forest.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(forest.body().contains("TracesyncForest"), forest.body());
        HttpResponse<String> d3 = get("/webjars/d3-hierarchy/3.1.2/dist/d3-hierarchy.min.js");
        assertEquals(200, d3.statusCode());
        assertEquals("text/javascript; charset=utf-8", d3.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(d3.body().contains("hierarchy"));
    }

    @Test
    void servesNothingElseUnderWebjars() throws Exception {
        for (String path : new String[] {
                "/webjars/../../../io/tracesync/streams/http/forest.js",
                "/webjars/%2e%2e/%2e%2e/%2e%2e/io/tracesync/streams/http/forest.js",
                "/webjars/d3-hierarchy/3.1.2/./dist/d3-hierarchy.min.js",
                "/webjars/d3-hierarchy//3.1.2/dist/d3-hierarchy.min.js",
                "/webjars/d3-hierarchy/3.1.2/package.json",
                "/webjars/d3-hierarchy/3.1.2/dist/",
                "/webjars/d3-hierarchy/3.1.2/dist/nothing.js",
                "/webjars/"}) {
            HttpResponse<String> r = get(path);
            assertEquals(404, r.statusCode(), path);
            assertEquals(Reply.JSON, r.headers().firstValue("Content-Type").orElseThrow(), path);
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
