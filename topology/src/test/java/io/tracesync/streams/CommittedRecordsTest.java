package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class CommittedRecordsTest {

    /**
     * Under Kafka Streams' own rebalance protocol ({@code group.protocol=streams}) with static membership, a reader
     * still builds: the group's keys, which a consumer in no group has no use for and whose {@code streams} it
     * refuses, are left out; the client settings stay.
     */
    @Test
    void aReaderLeavesTheGroupKeysOut() {
        Settings settings = Settings.of(Map.of("group.protocol", "streams", "traces.topic", "traces",
                "group.instance.id", "tracesync-0", "bootstrap.servers", "127.0.0.1:1", "security.protocol",
                "PLAINTEXT"));
        Properties p = CommittedRecords.readerProperties(settings);
        for (String key : new String[] {ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG}) {
            assertFalse(p.containsKey(key), key);
        }
        assertEquals("read_committed", p.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG));
        assertEquals("127.0.0.1:1", p.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            assertEquals(0, c.assignment().size());
        }
    }
}
