package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared broker and registry answer. */
@ExtendWith(SharedKafkaEnvironment.class)
class KafkaEnvironmentSmokeTest {
    @Test
    void brokerAnswers() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers()))) {
            assertFalse(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).isEmpty());
        }
    }

    @Test
    void registryAnswers() throws Exception {
        HttpResponse<String> subjects = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(SharedKafkaEnvironment.registryUrl() + "/subjects")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, subjects.statusCode(), subjects.body());
    }
}
