package io.tracesync.streams.errors;

import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer that holds the dead-letter topic's metadata before it can need it. Kafka Streams writes the dead
 * letter of a record the broker refused from that record's send callback, on the producer's network thread (Kafka
 * 4.3.1, {@code RecordCollectorImpl.recordSendError}). A producer that has not written to the dead-letter topic yet,
 * or not for {@code metadata.max.idle.ms}, has no metadata for it then, and its {@code send} waits for metadata that
 * only the blocked network thread could fetch: every write of the thread's tasks stalls for {@code max.block.ms},
 * the dead letter then fails with a TimeoutException, and the task restarts from its last commit. So each send made
 * on another thread first fetches or keeps the dead-letter topic's metadata ({@code partitionsFor}, which also marks
 * the topic as used), at most every quarter of the idle time; a send to the dead-letter topic itself never waits
 * here, since those are the ones the network thread makes.
 */
final class DeadLetterReadyProducer extends KafkaProducer<byte[], byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterReadyProducer.class);

    private final String deadLetterTopic;
    private final long refreshNs;
    /** When the metadata was last fetched or kept, by the one thread (a stream thread) that sends here. */
    private volatile long lastReadyNs;
    private volatile boolean ready;

    DeadLetterReadyProducer(Map<String, Object> config, String deadLetterTopic) {
        super(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.deadLetterTopic = deadLetterTopic;
        Object idle = config.get(ProducerConfig.METADATA_MAX_IDLE_CONFIG);
        long idleMs = idle == null ? 300_000L : Long.parseLong(idle.toString());
        this.refreshNs = TimeUnit.MILLISECONDS.toNanos(idleMs / 4);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        if (!record.topic().equals(deadLetterTopic)) {
            keepDeadLetterMetadata();
        }
        return super.send(record, callback);
    }

    private void keepDeadLetterMetadata() {
        long now = System.nanoTime();
        if (ready && now - lastReadyNs < refreshNs) {
            return;
        }
        lastReadyNs = now;
        try {
            partitionsFor(deadLetterTopic);
            if (!ready) {
                LOG.debug("metadata of the dead-letter topic {} fetched", deadLetterTopic);
            }
            ready = true;
        } catch (KafkaException e) {
            ready = false;
            LOG.error("no metadata for the dead-letter topic {} ({}): a dead letter for a record the broker refuses "
                    + "would stall this instance's writes; does the topic exist?", deadLetterTopic, e.toString());
        }
    }
}
