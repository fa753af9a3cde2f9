package io.tracesync.testkit;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Stands in for {@code io.tracesync.app.ApplicationCommand run}: reads the {@code -D} settings, creates its state
 * directory, serves {@code /health} on a free port that it tells in {@code http.port.file}, logs the state line
 * an instance logs once RUNNING, and runs until stopped.
 */
public final class FakeInstance {

    private FakeInstance() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("-D")) {
                String[] kv = args[i + 1].split("=", 2);
                settings.put(kv[0], kv[1]);
            }
        }
        Files.createDirectories(Path.of(settings.get("state.dir")));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(settings.get("http.port"))), 0);
        server.createContext("/health", exchange -> {
            byte[] body = ("{\"ready\":true,\"member\":\"" + settings.get("group.instance.id") + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        Files.writeString(Path.of(settings.get("http.port.file")), server.getAddress().getPort() + "\n");
        System.out.println("2026-11-29T00:00:00.000+0000 INFO TracesyncApp - state REBALANCING -> RUNNING");
        Thread.sleep(Long.MAX_VALUE);
    }
}
