package io.tracesync.environment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Whether a Docker engine answers {@code GET /_ping}, on {@code DOCKER_HOST} ({@code unix://} or {@code tcp://})
 * or the usual sockets. Takes at most about a second per endpoint.
 */
final class DockerEngine {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final byte[] PING =
            "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private DockerEngine() {}

    static boolean answers() {
        return endpoints().stream().anyMatch(DockerEngine::pings);
    }

    private static List<SocketAddress> endpoints() {
        List<SocketAddress> endpoints = new ArrayList<>();
        String dockerHost = System.getenv("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            URI uri = URI.create(dockerHost);
            if ("unix".equals(uri.getScheme())) {
                endpoints.add(UnixDomainSocketAddress.of(uri.getPath()));
            } else if ("tcp".equals(uri.getScheme())) {
                endpoints.add(new InetSocketAddress(uri.getHost(), uri.getPort()));
            }
            return endpoints;
        }
        for (Path socket : List.of(Path.of("/var/run/docker.sock"),
                Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"))) {
            if (Files.exists(socket)) {
                endpoints.add(UnixDomainSocketAddress.of(socket));
            }
        }
        return endpoints;
    }

    /** Sends the ping in a helper thread so that a silent endpoint cannot hold the caller past the timeout. */
    private static boolean pings(SocketAddress endpoint) {
        CompletableFuture<Boolean> ping = CompletableFuture.supplyAsync(() -> {
            try {
                return endpoint instanceof UnixDomainSocketAddress ? pingUnix(endpoint) : pingTcp(endpoint);
            } catch (IOException e) {
                return false;
            }
        });
        try {
            return ping.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            ping.cancel(true);
            return false;
        }
    }

    private static boolean pingUnix(SocketAddress endpoint) throws IOException {
        try (SocketChannel channel = SocketChannel.open(endpoint)) {
            channel.write(ByteBuffer.wrap(PING));
            return okResponse(Channels.newInputStream(channel));
        }
    }

    private static boolean pingTcp(SocketAddress endpoint) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(endpoint, (int) TIMEOUT.toMillis());
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(PING);
            out.flush();
            return okResponse(socket.getInputStream());
        }
    }

    private static boolean okResponse(InputStream in) throws IOException {
        String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
        return status.startsWith("HTTP/1.") && status.endsWith(" 200");
    }
}
