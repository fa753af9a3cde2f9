package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import io.tracesync.schema.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest factor of every node in {@code sync.factors}, kept up to date by a background thread, and
 * conversions of local timestamps to reference time with their guaranteed bounds. Thread-safe.
 *
 * <p>The thread assigns itself every partition of the topic (no consumer group), reads it from the beginning with
 * {@code isolation.level=read_committed}, so aborted transactions are never seen, and keeps per node the record
 * with the highest {@code version}; a tombstone (null value) removes the node. A topic that does not exist yet is
 * waited for, as are brokers that do not answer at the start; partitions added later are not read.
 *
 * <pre>{@code
 * try (SyncClock clock = SyncClock.start(Map.of(
 *         "bootstrap.servers", "127.0.0.1:9092",
 *         "schema.registry.url", "http://127.0.0.1:8081/apis/ccompat/v7"))) {
 *     clock.awaitCaughtUp(Duration.ofSeconds(30));
 *     clock.convert("node-7", localNs).ifPresent(c -> System.out.println(c.referenceNs()));
 * }
 * }</pre>
 */
public final class SyncClock implements AutoCloseable {

    /** The key naming the topic, as in the application's configuration. */
    public static final String TOPIC_CONFIG = "factors.topic";
    public static final String DEFAULT_TOPIC = "sync.factors";

    private static final Logger LOG = LoggerFactory.getLogger(SyncClock.class);

    private final LatestFactors table = new LatestFactors();
    private final FactorPoller poller;
    private final Thread thread;

    private SyncClock(Map<String, ?> config, FactorListener listener) {
        Map<String, Object> props = new HashMap<>(config);
        String topic = String.valueOf(props.getOrDefault(TOPIC_CONFIG, DEFAULT_TOPIC));
        props.remove(TOPIC_CONFIG);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "tracesync-sync-clock");
        SpecificAvroDeserializer<SyncFactor> values = new SpecificAvroDeserializer<>(SyncFactor.class);
        values.configure(props, false);
        KafkaConsumer<String, SyncFactor> consumer = new KafkaConsumer<>(props, new StringDeserializer(), values);
        poller = new FactorPoller(consumer, topic, table, (node, previous, current) -> tell(listener, node, previous,
                current));
        thread = new Thread(poller, "tracesync-sync-clock-" + topic);
        thread.setDaemon(true);
    }

    /**
     * Starts reading. {@code config} holds the consumer's settings (bootstrap servers, security, ...), the
     * registry's ({@code schema.registry.url}, ...) and optionally {@value #TOPIC_CONFIG} (default
     * {@value #DEFAULT_TOPIC}). {@code isolation.level} is always read_committed; {@code group.id} is ignored (no
     * group, no committed offsets).
     *
     * @throws org.apache.kafka.common.KafkaException if the configuration is invalid
     */
    public static SyncClock start(Map<String, ?> config) {
        return start(config, (node, previous, current) -> { });
    }

    /** {@link #start(Map)}, telling {@code listener} of every change from the first record on. */
    public static SyncClock start(Map<String, ?> config, FactorListener listener) {
        SyncClock clock = new SyncClock(config, listener);
        clock.thread.start();
        return clock;
    }

    /**
     * Waits until the end offsets found at the start have been read (at least once: the clock keeps following the
     * topic afterwards).
     *
     * @return whether they were read within {@code timeout}; false too if the clock was closed
     * @throws IllegalStateException if reading failed for good (the cause says why: authentication,
     *     authorization ...)
     */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return poller.awaitCaughtUp(timeout);
    }

    /** Whether the end offsets found at the start have been read and the clock still reads. */
    public boolean caughtUp() {
        return poller.caughtUp();
    }

    /**
     * {@code localNs} of {@code node}'s clock in its reference's time (see {@link PublishedFactor#convert}); empty if
     * the node has no factor.
     */
    public Optional<ReferenceTime> convert(String node, long localNs) {
        return table.get(node).map(f -> f.convert(localNs));
    }

    /** The node's latest factor, if any. */
    public Optional<PublishedFactor> factor(String node) {
        return table.get(node);
    }

    /** The nodes that have a factor now. */
    public SortedSet<String> nodes() {
        return new TreeSet<>(table.snapshot().keySet());
    }

    /** The latest factor of every node, as of now. */
    public Map<String, PublishedFactor> factors() {
        return table.snapshot();
    }

    /** Stops the thread and closes its consumer; the factors read stay available. */
    @Override
    public void close() {
        poller.close();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void tell(FactorListener listener, String node, PublishedFactor previous, PublishedFactor current) {
        try {
            listener.changed(node, previous, current);
        } catch (RuntimeException e) {
            LOG.error("factor listener failed on {}", node, e);
        }
    }
}
