package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client stays light: the core and the schemas, but neither Kafka Streams nor the topology. */
class DependenciesTest {

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.kafka.streams.KafkaStreams", "io.tracesync.streams.TracesyncApp"})
    void isNotOnTheClassPath(String name) {
        assertThrows(ClassNotFoundException.class, () -> Class.forName(name));
    }

    @Test
    void theSchemasAndTheCoreAreThere() throws ClassNotFoundException {
        Class.forName("io.tracesync.avro.SyncFactor");
        Class.forName("io.tracesync.core.network.Conversion");
    }
}
