package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tracesync local-services}, packaged: prints the addresses of a broker and a registry that answer, keeps
 * them until it is stopped, and stops them with it.
 */
class LocalServicesTest {

    private static final Pattern ADDRESSES = Pattern.compile(
            "bootstrap\\.servers=(\\S+)\\nschema\\.registry\\.url=(\\S+)\\n");

    @TempDir
    Path dir;

    @Test
    void printsServicesThatAnswerAndStopsThemWithItself() throws Exception {
        Path log = dir.resolve("local-services.log");
        Process p = PackagedJar.TOOLS.start(log, List.of(), "local-services", "--work",
                dir.resolve("work").toString());
        try {
            Matcher m = null;
            for (int i = 0; i < 120 && (m == null || !m.find()); i++) {
                Thread.sleep(500);
                assertTrue(p.isAlive(), () -> "ended early: " + read(log));
                m = ADDRESSES.matcher(read(log));
            }
            assertTrue(m.find(0), "no addresses printed: " + read(log));
            String bootstrap = m.group(1);
            String registry = m.group(2);
            Properties props = new Properties();
            props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (Admin admin = Admin.create(props)) {
                assertEquals(1, admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size());
            }
            HttpResponse<String> subjects = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(registry + "/subjects")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, subjects.statusCode(), subjects.body());
            assertTrue(read(log).contains("Ctrl-C stops them."), read(log));

            p.destroy(); // SIGTERM, as Ctrl-C's SIGINT ends the JVM
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running: " + read(log));
            String[] hostPort = bootstrap.split(":");
            assertFalse(answers(hostPort[0], Integer.parseInt(hostPort[1])), "the broker outlived the command");
            URI r = URI.create(registry);
            assertFalse(answers(r.getHost(), r.getPort()), "the registry outlived the command");
        } finally {
            p.destroyForcibly();
        }
    }

    private static boolean answers(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
