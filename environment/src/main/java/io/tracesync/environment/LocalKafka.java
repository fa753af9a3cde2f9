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
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka (broker and controller in one JVM, or in two for {@link #crash}) run as child processes
 * from the jars that tracesync-environment-artifacts recorded, on the newest installed JDK. Settings fit one node:
 * every internal topic has one replica and one partition, so transactions ({@code exactly_once_v2}) work.
 */
public final class LocalKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalKafka.class);
    private static final int BROKER_ID = 1;
    private static final int CONTROLLER_ID = 2;
    /** What the controller logs when a broker's session expired (Kafka 4.3's {@code ReplicationControlManager}). */
    private static final String FENCED = "Fencing broker " + BROKER_ID + " at epoch ";
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
    /** The KRaft controller's own process, or null when the broker is its own controller. */
    private final ChildProcess controller;
    private final int controllerPort;
    private final Path controllerLog;
    private ChildProcess process;

    private LocalKafka(List<String> command, Path workDir, Path log, int port, int[] securePorts,
            ChildProcess controller, int controllerPort, Path controllerLog) {
        this.command = command;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
        this.bootstrapServers = "127.0.0.1:" + port;
        this.securePorts = securePorts;
        this.controller = controller;
        this.controllerPort = controllerPort;
        this.controllerLog = controllerLog;
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
        return start(dir, secure, false);
    }

    /**
     * Like {@link #start(Path)}, but the broker and its KRaft controller in JVMs of their own, as production clusters
     * run them: the broker can then be killed ({@link #crash}) while the controller goes on and fences it.
     */
    public static LocalKafka startWithSeparateController(Path workDir) throws IOException {
        return start(workDir, null, true);
    }

    private static LocalKafka start(Path dir, SecureListeners secure, boolean separateController) throws IOException {
        long began = System.nanoTime();
        Path workDir = dir.toAbsolutePath(); // the tools run in it: a relative path would resolve twice
        Path dataDir = workDir.resolve("data");
        Path controllerDir = workDir.resolve("controller");
        Path log = workDir.resolve("kafka.log");
        FileTrees.delete(dataDir);
        FileTrees.delete(controllerDir);
        Files.deleteIfExists(log);
        Files.createDirectories(workDir);
        int[] ports = FreePorts.pick(secure == null ? 2 : 4);
        Path config = workDir.resolve("server.properties");
        Properties server = separateController ? brokerProperties(ports[0], ports[1], dataDir)
                : serverProperties(ports[0], ports[1], dataDir);
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
        String clusterId = Uuid.randomUuid().toString();
        String archive = "kafka-" + Integer.toHexString(classpath.hashCode());

        ChildProcess controller = null;
        Path controllerLog = controllerDir.resolve("controller.log");
        if (separateController) {
            Path controllerConfig = controllerDir.resolve("controller.properties");
            Files.createDirectories(controllerDir);
            write(controllerProperties(ports[1], controllerDir.resolve("data")), controllerConfig);
            format(launch, clusterId, controllerConfig, List.of("--standalone"), controllerDir, controllerLog);
            controller = ChildProcess.start("Kafka controller", concat(launch,
                    ClassDataSharing.options(java, archive + "-controller"),
                    List.of("kafka.Kafka", controllerConfig.toString())), controllerDir, controllerLog);
            try {
                controller.awaitReady(() -> controllerAnswers(ports[1]), START_TIMEOUT);
            } catch (IOException | RuntimeException e) {
                controller.close();
                throw e;
            }
        }
        try {
            format(launch, clusterId, config, separateController ? List.of("--no-initial-controllers")
                    : concat(List.of("--standalone"), secure == null ? List.of() : secure.formatArguments()),
                    workDir, log);
            LocalKafka started = new LocalKafka(concat(launch, ClassDataSharing.options(java, archive),
                    List.of("kafka.Kafka", config.toString())), workDir, log, ports[0],
                    secure == null ? new int[0] : new int[] {ports[2], ports[3]}, controller, ports[1],
                    controllerLog);
            started.launch();
            LOG.info("{} ready in {} ms", started.description(), (System.nanoTime() - began) / 1_000_000);
            return started;
        } catch (IOException | RuntimeException e) {
            if (controller != null) {
                controller.close();
            }
            throw e;
        }
    }

    private static void format(List<String> launch, String clusterId, Path config, List<String> arguments,
            Path directory, Path log) throws IOException {
        ChildProcess.run("Kafka storage format", concat(launch, TOOL_OPTIONS, List.of("kafka.tools.StorageTool",
                "format", "--cluster-id", clusterId, "--config", config.toString()), arguments), directory, log,
                FORMAT_TIMEOUT);
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
     * Kills the broker with SIGKILL (an unclean shutdown: it recovers its logs when it starts), waits until the
     * controller has fenced it and {@code down} has passed, and starts it again on the same ports and data
     * directory: for fault runs. Only with a {@linkplain #startWithSeparateController separate controller}: a broker
     * that is its own controller restarts on the metadata it had, sees itself leader of every partition, and its
     * transaction coordinator aborts the transactions that timed out meanwhile; when the controller then fences the
     * old incarnation, every partition is left without a leader for a moment, the coordinator takes the missing
     * leader for a deleted partition and completes the abort without writing its markers there (Kafka 4.3.1), and
     * such a hanging transaction holds back every {@code read_committed} reader of the partition for good.
     */
    public void crash(Duration down) throws IOException, InterruptedException {
        if (controller == null) {
            throw new IllegalStateException("a broker that is its own controller cannot be crashed safely: start it "
                    + "with startWithSeparateController");
        }
        long fencesBefore = fences();
        long killed = System.nanoTime();
        process.kill();
        long fenced = awaitFenced(killed, fencesBefore);
        long left = down.toMillis() - (System.nanoTime() - killed) / 1_000_000;
        if (left > 0) {
            Thread.sleep(left);
        }
        LOG.info("broker {} killed (SIGKILL), fenced by its controller after {} ms, down for {} ms", bootstrapServers,
                fenced, (System.nanoTime() - killed) / 1_000_000);
        launch();
        LOG.info("{} restarted after a crash", description());
    }

    /** Waits until the controller's log says it fenced this broker a {@code fencesBefore + 1}-th time. */
    private long awaitFenced(long since, long fencesBefore) throws IOException {
        controller.await(() -> fences() > fencesBefore, START_TIMEOUT, "done fencing broker " + BROKER_ID);
        return (System.nanoTime() - since) / 1_000_000;
    }

    /** How often the controller's log says it fenced this broker. */
    private long fences() throws IOException {
        try (Stream<String> lines = Files.lines(controllerLog)) {
            return lines.filter(l -> l.contains(FENCED)).count();
        }
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
        return "local KRaft broker " + bootstrapServers + " (pid " + pid() + ")"
                + (controller == null ? "" : ", its controller 127.0.0.1:" + controllerPort + " (pid "
                        + controller.pid() + ")");
    }

    @Override
    public void close() {
        process.close();
        if (controller != null) {
            controller.close();
        }
    }

    /** The broker's configuration: combined broker and controller, node 1, plaintext on 127.0.0.1. */
    static Properties serverProperties(int brokerPort, int controllerPort, Path dataDir) {
        Properties p = node(oneNode(dataDir), "broker,controller", BROKER_ID,
                "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort, controllerPort);
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        return p;
    }

    /** A broker alone, node 1, plaintext on 127.0.0.1; its controller on {@code controllerPort}. */
    static Properties brokerProperties(int brokerPort, int controllerPort, Path dataDir) {
        Properties p = node(separateRoles(dataDir), "broker", BROKER_ID, "PLAINTEXT://127.0.0.1:" + brokerPort,
                controllerPort);
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        return p;
    }

    /** A controller alone, node 2, on 127.0.0.1; it fences a broker 2 s after its last heartbeat. */
    static Properties controllerProperties(int controllerPort, Path dataDir) {
        return node(separateRoles(dataDir), "controller", CONTROLLER_ID, "CONTROLLER://127.0.0.1:" + controllerPort,
                controllerPort);
    }

    /** {@code p} with a node's roles, id and plaintext {@code listeners}; the quorum's one voter on 127.0.0.1. */
    private static Properties node(Properties p, String roles, int id, String listeners, int controllerPort) {
        p.setProperty("process.roles", roles);
        p.setProperty("node.id", Integer.toString(id));
        p.setProperty("listeners", listeners);
        p.setProperty("advertised.listeners", listeners);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        return p;
    }

    /** A killed broker is fenced 2 s after its last heartbeat (Kafka's default: 9 s); both roles check the pair. */
    private static Properties separateRoles(Path dataDir) {
        Properties p = oneNode(dataDir);
        p.setProperty("broker.heartbeat.interval.ms", "500");
        p.setProperty("broker.session.timeout.ms", "2000");
        return p;
    }

    /** What fits one node, whatever its roles: every internal topic with one replica and one partition. */
    private static Properties oneNode(Path dataDir) {
        Properties p = new Properties();
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
        // the same for streams groups (group.protocol=streams), whose minimum session timeout is 45 s and heartbeat
        // interval 5 s by default, set on the broker
        p.setProperty("group.streams.initial.rebalance.delay.ms", "0");
        p.setProperty("group.streams.min.session.timeout.ms", "1000");
        p.setProperty("group.streams.min.heartbeat.interval.ms", "250");
        // a dead instance's open transaction is aborted within 1 s of its transaction.timeout.ms (Kafka's default
        // check every 10 s): until then its partitions' committed offsets are unstable and their new owner waits
        p.setProperty("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
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

    /** Whether the controller answers a request for the quorum's nodes. */
    private static boolean controllerAnswers(int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        }
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG, "127.0.0.1:" + port,
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

    /**
     * Kafka 4 logs through Log4j 2: warnings to the console (the log file), plus at INFO the lifecycle, which
     * transaction markers were skipped, and the controller's changes to partitions and brokers (fencing included).
     */
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
                <Logger name="kafka.coordinator.transaction.TransactionMarkerChannelManager" level="INFO"/>
                <Logger name="org.apache.kafka.controller.ReplicationControlManager" level="INFO"/>
              </Loggers>
            </Configuration>
            """;
}
