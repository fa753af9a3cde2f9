package io.tracesync.environment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka broker and a Confluent-compatible Schema Registry for the demo and the integration tests, chosen in this
 * order: the external services named by {@value #BOOTSTRAP_VARIABLE} and {@value #REGISTRY_VARIABLE} (either
 * alone: the other one starts locally); containers, when a Docker engine answers; otherwise local child processes
 * ({@link LocalKafka}, {@link LocalRegistry}). {@link #close()} stops whatever was started.
 */
public final class KafkaEnvironment implements AutoCloseable {
    public static final String BOOTSTRAP_VARIABLE = "TRACESYNC_BOOTSTRAP";
    public static final String REGISTRY_VARIABLE = "TRACESYNC_REGISTRY_URL";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaEnvironment.class);

    private final String bootstrapServers;
    private final String registryUrl;
    private final String description;
    private final List<Runnable> stops;

    KafkaEnvironment(String bootstrapServers, String registryUrl, String description, List<Runnable> stops) {
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
        this.description = description;
        this.stops = stops;
    }

    /**
     * Starts (or finds, through {@value #BOOTSTRAP_VARIABLE} / {@value #REGISTRY_VARIABLE}) the broker and the
     * registry, in parallel; local processes keep their files in workDir.
     */
    public static KafkaEnvironment start(Path workDir) throws IOException {
        return start(workDir, variable(BOOTSTRAP_VARIABLE), variable(REGISTRY_VARIABLE));
    }

    /** Uses the services given (non-null) as they are and starts the others, as {@link #start(Path)} does. */
    public static KafkaEnvironment start(Path workDir, String bootstrap, String registry) throws IOException {
        long began = System.nanoTime();
        KafkaEnvironment environment = bootstrap == null && registry == null && DockerEngine.answers()
                ? ContainerServices.start()
                : startLocally(workDir, bootstrap, registry);
        LOG.info("{} ready in {} ms", environment.description, (System.nanoTime() - began) / 1_000_000);
        return environment;
    }

    /** The broker's bootstrap servers, {@code host:port}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The Confluent-compatible registry base URL, e.g. {@code http://127.0.0.1:PORT/apis/ccompat/v7}. */
    public String registryUrl() {
        return registryUrl;
    }

    /** One line: what runs where. */
    public String description() {
        return description;
    }

    /** Stops what {@link #start(Path)} started; external services are left alone. */
    @Override
    public void close() {
        stops.forEach(Runnable::run);
    }

    /** Starts locally whichever of the two is not given, both at once. */
    private static KafkaEnvironment startLocally(Path workDir, String bootstrap, String registry) throws IOException {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Service> kafka = threads.submit(bootstrap != null
                    ? () -> Service.external("broker", bootstrap)
                    : () -> Service.of(LocalKafka.start(workDir.resolve("kafka"))));
            Future<Service> schemas = threads.submit(registry != null
                    ? () -> Service.external("registry", registry)
                    : () -> Service.of(LocalRegistry.start(workDir.resolve("registry"))));
            List<Service> services = awaitAll(List.of(kafka, schemas));
            Service broker = services.get(0);
            Service registryService = services.get(1);
            return new KafkaEnvironment(broker.address(), registryService.address(),
                    broker.description() + ", " + registryService.description(),
                    List.of(registryService.stop(), broker.stop()));
        } finally {
            threads.shutdown();
        }
    }

    /** Waits for every start; if one failed, stops the others and rethrows the failure. */
    private static List<Service> awaitAll(List<Future<Service>> starts) throws IOException {
        List<Service> started = new ArrayList<>();
        IOException failure = null;
        boolean interrupted = false;
        for (Future<Service> start : starts) {
            while (true) {
                try {
                    started.add(start.get());
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    IOException cause = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            started.forEach(service -> service.stop().run());
            throw failure;
        }
        return started;
    }

    /** One side of the environment: where it answers, what it is, how to stop it. */
    private record Service(String address, String description, Runnable stop) {
        static Service of(LocalKafka kafka) {
            return new Service(kafka.bootstrapServers(), kafka.description(), kafka::close);
        }

        static Service of(LocalRegistry registry) {
            return new Service(registry.url(), registry.description(), registry::close);
        }

        static Service external(String what, String address) {
            return new Service(address, "external " + what + " " + address, () -> { });
        }
    }

    private static String variable(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? null : value.trim();
    }
}
