package io.tracesync.environment;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka (broker and controller in one JVM) run as a child process from the jars that
 * tracesync-environment-artifacts recorded, on the newest installed JDK. Settings fit one node: every internal
 * topic has one replica and one partition, so transactions ({@code exactly_once_v2}) work.
 */
public final class LocalKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalKafka.class);
    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of("-Xmx1g", "-XX:+UseSerialGC", "-Djava.awt.headless=true");
    /** The format tool lives a second: the C1 compiler alone starts it fastest. */
    private static final List<String> TOOL_OPTIONS = List.of("-XX:TieredStopAtLevel=1");

    private final List<String> command;
    private final Path workDir;
    private final Path log;
    private final int port;
    private final String bootstrapServers;
    private final int[] securePorts;
    private ChildProcess process;

    private LocalKafka(List<String> command, Path workDir, Path log, int port, int[] securePorts) {
        this.command = command;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
        this.bootstrapServers = "127.0.0.1:" + port;
        this.securePorts = securePorts;
    }

    /**
     * Formats a fresh data directory under {@code workDir} (replacing one left there), starts the broker and waits
     * until it answers.
     */
    public static LocalKafka start(Path workDir) throws IOException {
        return start(workDir, null);
    }

    /** As {@link #start(Path)}, with SSL and SASL_SSL listeners too when {@code secure} is not null. */
    public static LocalKafka start(Path dir, SecureListeners secure) throws IOException {
        long began = System.nanoTime();
        Path workDir = dir.toAbsolutePath(); // the tools run in it: a relative path would resolve twice
        Path dataDir = workDir.resolve("data");
        Path log = workDir.resolve("kafka.log");
        FileTrees.delete(dataDir);
        Files.deleteIfExists(log);
        Files.createDirectories(workDir);
        int[] ports = FreePorts.pick(secure == null ? 2 : 4);
        Path config = workDir.resolve("server.properties");
        Properties server = serverProperties(ports[0], ports[1], dataDir);
        if (secure != null) {
            addSecureListeners(server, ports[2], ports[3]);
            secure.configure(server);
        }
        write(server, config);
        Path log4j = workDir.resolve("log4j2.xml");
        Files.writeString(log4j, LOG4J_CONFIG);
        String classpath = EnvironmentArtifacts.load().kafkaClasspath();

        Path java = JavaRuntimes.newest();
        List<String> launch = new ArrayList<>(List.of(java.toString(), "-Dlog4j2.configurationFile=" + log4j.toUri(),
                "-cp", classpath));
        launch.addAll(JVM_OPTIONS);

        ChildProcess.run("Kafka storage format", concat(launch, TOOL_OPTIONS, List.of("kafka.tools.StorageTool",
                "format", "--standalone", "--cluster-id", Uuid.randomUuid().toString(), "--config", config.toString()),
                secure == null ? List.of() : secure.formatArguments()), workDir, log, FORMAT_TIMEOUT);
        LocalKafka started = new LocalKafka(concat(launch,
                ClassDataSharing.options(java, "kafka-" + Integer.toHexString(classpath.hashCode())),
                List.of("kafka.Kafka", config.toString())), workDir, log, ports[0],
                secure == null ? new int[0] : new int[] {ports[2], ports[3]});
        started.launch();
        LOG.info("{} ready in {} ms", started.description(), (System.nanoTime() - began) / 1_000_000);
        return started;
    }

    private void launch() throws IOException {
        ChildProcess child = ChildProcess.start("Kafka broker", command, workDir, log);
        try {
            child.awaitReady(() -> answers(port), START_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            child.close();
            throw e;
        }
        process = child;
    }

    /**
     * Stops the broker and starts it again on the same ports and data directory, waiting {@code down} in between:
     * for tests of clients that must ride out a broker outage.
     */
    public void restart(Duration down) throws IOException, InterruptedException {
        process.close();
        LOG.info("broker {} stopped for {} ms", bootstrapServers, down.toMillis());
        Thread.sleep(down.toMillis());
        launch();
        LOG.info("{} restarted", description());
    }

    /**
     * Kills the broker with SIGKILL (an unclean shutdown: it recovers its logs when it starts), waits {@code down},
     * and starts it again on the same ports and data directory: for fault runs.
     */
    public void crash(Duration down) throws IOException, InterruptedException {
        process.kill();
        LOG.info("broker {} killed (SIGKILL), down for {} ms", bootstrapServers, down.toMillis());
        Thread.sleep(down.toMillis());
        launch();
        LOG.info("{} restarted after a crash", description());
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The TLS listener, {@code host:port}; only when started with {@link SecureListeners}. */
    public String sslBootstrapServers() {
        return secure(0);
    }

    /** The SASL/SCRAM over TLS listener, {@code host:port}; only when started with {@link SecureListeners}. */
    public String saslSslBootstrapServers() {
        return secure(1);
    }

    private String secure(int i) {
        if (securePorts.length == 0) {
            throw new IllegalStateException("this broker was started without secure listeners");
        }
        return "127.0.0.1:" + securePorts[i];
    }

    public long pid() {
        return process.pid();
    }

    /** The last lines of the broker's log, for a failure message. */
    public String logTail(int lines) {
        return ChildProcess.tail(log, lines);
    }

    /** One line: what runs where. */
    public String description() {
        return "local KRaft broker " + bootstrapServers + " (pid " + pid() + ")";
    }

    @Override
    public void close() {
        process.close();
    }

    /** The broker's configuration: combined broker and controller, node 1, plaintext on 127.0.0.1. */
    static Properties serverProperties(int brokerPort, int controllerPort, Path dataDir) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners",
                "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("log.dirs", dataDir.toAbsolutePath().toString());
        p.setProperty("num.partitions", "1");
        p.setProperty("default.replication.factor", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.num.partitions", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // lets bench-failover try session timeouts under Kafka's default minimum of 6 s
        p.setProperty("group.min.session.timeout.ms", "1000");
        return p;
    }

    /** SSL and SASL_SSL listeners beside the plaintext one, which the broker keeps for itself and for probes. */
    static void addSecureListeners(Properties p, int sslPort, int saslSslPort) {
        String secure = ",SSL://127.0.0.1:" + sslPort + ",SASL_SSL://127.0.0.1:" + saslSslPort;
        p.setProperty("listeners", p.getProperty("listeners") + secure);
        p.setProperty("advertised.listeners", p.getProperty("advertised.listeners") + secure);
        p.setProperty("listener.security.protocol.map",
                p.getProperty("listener.security.protocol.map") + ",SSL:SSL,SASL_SSL:SASL_SSL");
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }

    /** Whether the broker answers a metadata request; the port is tried first to keep the client quiet. */
    private static boolean answers(int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        }
        String bootstrap = "127.0.0.1:" + port;
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 100);
        try (Admin admin = Admin.create(config)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
        }
    }

    private static void write(Properties properties, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, "local single-node KRaft cluster, written by tracesync-environment");
        }
    }

    /** Kafka 4 logs through Log4j 2: warnings to the console (the log file), plus the lifecycle at INFO. */
    private static final String LOG4J_CONFIG = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Configuration status="WARN">
              <Appenders>
                <Console name="out" target="SYSTEM_OUT">
                  <PatternLayout pattern="[%d] %p %m (%c)%n"/>
                </Console>
              </Appenders>
              <Loggers>
                <Root level="WARN"><AppenderRef ref="out"/></Root>
                <Logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                <Logger name="kafka.server.BrokerServer" level="INFO"/>
                <Logger name="kafka.server.ControllerServer" level="INFO"/>
              </Loggers>
            </Configuration>
            """;
}
