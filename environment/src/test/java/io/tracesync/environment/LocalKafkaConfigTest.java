package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LocalKafkaConfigTest {
    @Test
    void picksDistinctPortsThatCanBeBound() throws IOException {
        int[] ports = FreePorts.pick(2);
        assertNotEquals(ports[0], ports[1]);
        for (int port : ports) {
            assertTrue(port > 0);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, socket.getLocalPort());
            }
        }
    }

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
    }

    @Test
    void theBuildRecordedTheBrokerClasspath() throws IOException {
        String classpath = EnvironmentArtifacts.load().kafkaClasspath();
        assertTrue(classpath.contains("kafka_2.13-4.3.1.jar"), classpath);
        assertTrue(classpath.contains("log4j-slf4j2-impl"), classpath);
    }
}
