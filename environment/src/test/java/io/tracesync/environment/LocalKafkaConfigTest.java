package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LocalKafkaConfigTest {
    @Test
    void configuresASingleNodeKRaftClusterOnLoopback() {
        Properties p = LocalKafka.serverProperties(9092, 9093, Path.of("/tmp/data"));
        assertEquals("broker,controller", p.getProperty("process.roles"));
        assertEquals("1", p.getProperty("node.id"));
        assertEquals("PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093", p.getProperty("listeners"));
        assertEquals("127.0.0.1:9093", p.getProperty("controller.quorum.bootstrap.servers"));
        assertEquals("/tmp/data", p.getProperty("log.dirs"));
        for (String key : new String[] {"offsets.topic.replication.factor", "transaction.state.log.replication.factor",
                "transaction.state.log.min.isr", "share.coordinator.state.topic.replication.factor"}) {
            assertEquals("1", p.getProperty(key), key);
        }
        assertEquals("0", p.getProperty("group.initial.rebalance.delay.ms"));
        assertEquals("0", p.getProperty("group.streams.initial.rebalance.delay.ms"));
        assertEquals("1000", p.getProperty("group.streams.min.session.timeout.ms"));
    }

    @Test
    void configuresABrokerAndItsControllerAsTwoNodesThatFenceADeadBrokerSoon() {
        Properties broker = LocalKafka.brokerProperties(9092, 9093, Path.of("/tmp/data"));
        Properties controller = LocalKafka.controllerProperties(9093, Path.of("/tmp/controller"));
        assertEquals("broker", broker.getProperty("process.roles"));
        assertEquals("controller", controller.getProperty("process.roles"));
        assertNotEquals(broker.getProperty("node.id"), controller.getProperty("node.id"));
        assertEquals("PLAINTEXT://127.0.0.1:9092", broker.getProperty("listeners"));
        assertEquals("CONTROLLER://127.0.0.1:9093", controller.getProperty("listeners"));
        for (Properties p : new Properties[] {broker, controller}) {
            assertEquals("127.0.0.1:9093", p.getProperty("controller.quorum.bootstrap.servers"));
            assertEquals("CONTROLLER", p.getProperty("controller.listener.names"));
            int heartbeat = Integer.parseInt(p.getProperty("broker.heartbeat.interval.ms"));
            int session = Integer.parseInt(p.getProperty("broker.session.timeout.ms"));
            assertTrue(2 * heartbeat <= session && session <= 2000, heartbeat + " ms heartbeats, " + session + " ms");
        }
        assertEquals("/tmp/controller", controller.getProperty("log.dirs"));
    }

    @Test
    void theBuildRecordedTheBrokerClasspath() throws IOException {
        String classpath = EnvironmentArtifacts.load().kafkaClasspath();
        assertTrue(classpath.contains("kafka_2.13-4.4.0.jar"), classpath);
        assertTrue(classpath.contains("log4j-slf4j2-impl"), classpath);
    }
}
