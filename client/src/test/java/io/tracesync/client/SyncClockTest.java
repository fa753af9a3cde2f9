package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

/** {@link SyncClock} without a broker; on a real one: integration-tests' SyncClockIntegrationTest. */
class SyncClockTest {

    /** Nothing listens on port 1 of the loopback address. */
    private static final Map<String, Object> NO_BROKER = Map.of("bootstrap.servers", "127.0.0.1:1",
            "schema.registry.url", "mock://sync-clock-test", "default.api.timeout.ms", "60000");

    @Test
    void withoutABrokerItIsNotCaughtUpAndClosesPromptly() throws Exception {
        SyncClock clock = SyncClock.start(NO_BROKER);
        assertFalse(clock.awaitCaughtUp(Duration.ofMillis(300)));
        assertFalse(clock.caughtUp());
        assertTrue(clock.nodes().isEmpty());
        assertTrue(clock.convert("a", 0).isEmpty());
        long start = System.nanoTime();
        clock.close();
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "close waited for the metadata timeout");
        assertFalse(clock.awaitCaughtUp(Duration.ofMillis(1)));
    }

    @Test
    void securityKeysReachTheConsumer() {
        Map<String, Object> config = new HashMap<>(NO_BROKER);
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "PLAIN");
        KafkaException e = assertThrows(KafkaException.class, () -> SyncClock.start(config).close());
        assertTrue(causes(e).contains("JAAS"), causes(e)); // SASL wanted a JAAS configuration
    }

    private static String causes(Throwable e) {
        StringBuilder s = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            s.append(t).append('\n');
        }
        return s.toString();
    }
}
