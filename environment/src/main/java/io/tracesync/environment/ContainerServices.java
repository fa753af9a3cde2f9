package io.tracesync.environment;

import java.time.Duration;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * The broker and the registry as Testcontainers. The only class that refers to Testcontainers, so that they are
 * loaded only when a Docker engine answers.
 */
final class ContainerServices {
    static final String KAFKA_IMAGE = "apache/kafka:4.4.0";
    static final String REGISTRY_IMAGE = "quay.io/apicurio/apicurio-registry:3.3.3";
    private static final int REGISTRY_PORT = 8080;

    private ContainerServices() {}

    /** Starts both containers in parallel. */
    static KafkaEnvironment start() {
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE));
        GenericContainer<?> registry = new GenericContainer<>(DockerImageName.parse(REGISTRY_IMAGE))
                .withExposedPorts(REGISTRY_PORT)
                .waitingFor(Wait.forHttp(LocalRegistry.CCOMPAT_PATH + "/subjects").forStatusCode(200)
                        .withStartupTimeout(Duration.ofSeconds(120)));
        try {
            Startables.deepStart(kafka, registry).join();
        } catch (RuntimeException e) {
            registry.stop();
            kafka.stop();
            throw e;
        }
        String url = "http://" + registry.getHost() + ":" + registry.getMappedPort(REGISTRY_PORT)
                + LocalRegistry.CCOMPAT_PATH;
        String description = "Kafka container " + KAFKA_IMAGE + " " + kafka.getBootstrapServers()
                + ", Apicurio Registry container " + REGISTRY_IMAGE + " " + url;
        return new KafkaEnvironment(kafka.getBootstrapServers(), url, description,
                List.of(registry::stop, kafka::stop));
    }
}
