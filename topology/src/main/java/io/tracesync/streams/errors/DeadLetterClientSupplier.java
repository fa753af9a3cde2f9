package io.tracesync.streams.errors;

import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' clients ({@code default.client.supplier}), with producers that hold the dead-letter topic's
 * metadata before a refused write needs it ({@link DeadLetterReadyProducer}); Kafka's own producers without a
 * dead-letter topic.
 */
public class DeadLetterClientSupplier extends DefaultKafkaClientSupplier implements Configurable {

    private String deadLetterTopic;

    @Override
    public void configure(Map<String, ?> configs) {
        Object name = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        deadLetterTopic = name == null ? null : String.valueOf(name);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return deadLetterTopic == null ? super.getProducer(config) : new DeadLetterReadyProducer(config,
                deadLetterTopic);
    }
}
