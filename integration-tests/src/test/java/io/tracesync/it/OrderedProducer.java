package io.tracesync.it;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A test's producer of records that must all arrive, in order: one request in flight, so that a batch refused by a
 * partition not yet open on the broker cannot be overtaken by the next one (an idempotent producer's later batch is
 * then accepted first and the refused one is rejected as out of order until it expires). {@link #flush} fails if any
 * record was not written.
 */
final class OrderedProducer<K, V> implements AutoCloseable {

    private final KafkaProducer<K, V> producer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    OrderedProducer(Map<?, ?> config, Serializer<K> keys, Serializer<V> values) {
        Map<String, Object> p = new HashMap<>();
        config.forEach((k, v) -> p.put(String.valueOf(k), v));
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        producer = new KafkaProducer<>(p, keys, values);
    }

    void send(ProducerRecord<K, V> record) {
        producer.send(record, (meta, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
    }

    /** Waits until every record sent is written; an AssertionError with the first failure otherwise. */
    void flush() {
        producer.flush();
        Exception f = failure.get();
        if (f != null) {
            throw new AssertionError("a record was not written: " + f, f);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
