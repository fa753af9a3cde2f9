package io.tracesync.streams.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.kafka.streams.state.HostInfo;

/** Passes a query on to the instance that holds the store, and its answer back. */
final class Forwarder {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    Reply forward(HostInfo host, URI uri) {
        URI target = URI.create("http://" + host.host() + ":" + host.port() + uri.getRawPath()
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        try {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(target).timeout(TIMEOUT)
                    .header(OperationsServer.FORWARDED, "1").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(Reply.JSON), r.body());
        } catch (IOException e) {
            return NetworkApi.error(502, "the instance at " + host.host() + ":" + host.port()
                    + " that runs the network task did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return NetworkApi.error(503, "interrupted while forwarding");
        }
    }
}
