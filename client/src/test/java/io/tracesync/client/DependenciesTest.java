package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client stays light: neither Kafka Streams nor the topology reaches its class path. */
class DependenciesTest {

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.kafka.streams.KafkaStreams", "io.tracesync.core.numeric.ClockMap",
            "io.tracesync.streams.TracesyncApp"})
    void isNotOnTheClassPath(String name) {
        assertThrows(ClassNotFoundException.class, () -> Class.forName(name));
    }

    @Test
    void theSchemasAreThere() throws ClassNotFoundException {
        Class.forName("io.tracesync.avro.SyncFactor");
    }
}
