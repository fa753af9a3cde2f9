package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.network.Conversion;
import io.tracesync.schema.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every node's factors from {@code sync.factors} and its history topic, kept up to date by a background thread, and
 * conversions of local timestamps to reference time with their guaranteed bounds, each with the versions in force
 * at its own time. Thread-safe.
 *
 * <p>The thread assigns itself every partition of both topics (no consumer group) and reads them from the
 * beginning with {@code isolation.level=read_committed}, so aborted transactions are never seen. It keeps per node
 * the record with the highest {@code version} of {@code sync.factors} ({@link #factor}) and the versions of both
 * topics within a memory budget ({@link #history}); a tombstone (null value) removes the node. A factors topic that
 * does not exist yet is waited for, as are brokers that do not answer at the start; a history topic that does not
 * exist yet is read once it appears, {@code sync.factors} meanwhile; partitions added later are not read.
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
    /**
     * The key naming the history topic, as in the application's configuration; empty turns the history off. By
     * default the factors topic's name followed by {@value #HISTORY_SUFFIX}: {@code sync.factors.history}.
     */
    public static final String HISTORY_TOPIC_CONFIG = "history.topic";
    public static final String HISTORY_SUFFIX = ".history";
    /**
     * The key of the heap the versions held may take, bytes, all nodes together: each node holds at most
     * max(2, versions / nodes) of them. A version held costs 204 bytes with compressed references (the JVM's default
     * below 32 GB of heap), counted as 224: 64 MiB hold 299,593 versions; with datasheet bounds 224 + 176: 167,772.
     */
    public static final String HISTORY_MAX_BYTES_CONFIG = "history.max.bytes";
    public static final long DEFAULT_HISTORY_MAX_BYTES = 64L << 20;
    /** The key of the age (ms, by {@code valid_from_ms}) beyond which versions are dropped; none by default. */
    public static final String HISTORY_RETENTION_MS_CONFIG = "history.retention.ms";

    private static final Logger LOG = LoggerFactory.getLogger(SyncClock.class);

    private final LatestFactors table = new LatestFactors();
    private final FactorHistories histories;
    private final FactorPoller poller;
    private final Thread thread;

    private SyncClock(Consumer<String, SyncFactor> consumer, String topic, String historyTopic,
            FactorHistories histories, FactorListener listener) {
        this.histories = histories;
        poller = new FactorPoller(consumer, topic, table, (node, previous, current) -> tell(listener, node,
                previous, current), historyTopic, histories);
        thread = new Thread(poller, "tracesync-sync-clock-" + topic);
        thread.setDaemon(true);
    }

    /**
     * Starts reading. {@code config} holds the consumer's settings (bootstrap servers, security, ...), the
     * registry's ({@code schema.registry.url}, ...) and optionally {@value #TOPIC_CONFIG} (default
     * {@value #DEFAULT_TOPIC}), {@value #HISTORY_TOPIC_CONFIG} (default the factors topic's name followed by
     * {@value #HISTORY_SUFFIX}; empty for none), {@value #HISTORY_MAX_BYTES_CONFIG} (default 64 MiB) and
     * {@value #HISTORY_RETENTION_MS_CONFIG} (default none). {@code isolation.level} is always read_committed;
     * {@code group.id} is ignored (no group, no committed offsets).
     *
     * @throws org.apache.kafka.common.KafkaException if the configuration is invalid
     */
    public static SyncClock start(Map<String, ?> config) {
        return start(config, (node, previous, current) -> { });
    }

    /** {@link #start(Map)}, telling {@code listener} of every change of a node's latest factor from the first on. */
    public static SyncClock start(Map<String, ?> config, FactorListener listener) {
        Map<String, Object> props = new HashMap<>(config);
        String topic = String.valueOf(props.getOrDefault(TOPIC_CONFIG, DEFAULT_TOPIC));
        String historyTopic = String.valueOf(props.getOrDefault(HISTORY_TOPIC_CONFIG, topic + HISTORY_SUFFIX))
                .strip();
        long maxBytes = positive(props, HISTORY_MAX_BYTES_CONFIG, DEFAULT_HISTORY_MAX_BYTES);
        long retentionMs = positive(props, HISTORY_RETENTION_MS_CONFIG, 0);
        List.of(TOPIC_CONFIG, HISTORY_TOPIC_CONFIG, ConsumerConfig.GROUP_ID_CONFIG).forEach(props::remove);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "tracesync-sync-clock");
        SpecificAvroDeserializer<SyncFactor> values = new SpecificAvroDeserializer<>(SyncFactor.class);
        values.configure(props, false);
        KafkaConsumer<String, SyncFactor> consumer = new KafkaConsumer<>(props, new StringDeserializer(), values);
        return historyTopic.isEmpty() ? start(consumer, topic, null, null, listener)
                : start(consumer, topic, historyTopic, new FactorHistories(FactorHistories.versionsWithin(maxBytes),
                        retentionMs, System::currentTimeMillis), listener);
    }

    /** A clock reading {@code consumer}; without a history when {@code historyTopic} and {@code histories} are null. */
    static SyncClock start(Consumer<String, SyncFactor> consumer, String topic, String historyTopic,
            FactorHistories histories, FactorListener listener) {
        SyncClock clock = new SyncClock(consumer, topic, historyTopic, histories, listener);
        clock.thread.start();
        return clock;
    }

    /** The value of {@code key}, removed from {@code props}: a number above 0, {@code otherwise} if absent. */
    private static long positive(Map<String, Object> props, String key, long otherwise) {
        Object v = props.remove(key);
        if (v == null) {
            return otherwise;
        }
        try {
            long n = v instanceof Number x ? x.longValue() : Long.parseLong(v.toString().strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(key, v, "a whole number above 0");
    }

    /**
     * Waits until the end offsets of both topics found at the start have been read (at least once: the clock keeps
     * following the topics afterwards).
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
     * {@code localNs} of {@code node}'s clock in its reference's time, with the versions held of the node's factor
     * ({@link ReferenceTime} says which and how), or its latest factor when the history is off (as
     * {@link PublishedFactor#convert}); empty if the node has no factor.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Optional<ReferenceTime> convert(String node, long localNs) {
        return convert(node, localNs, null);
    }

    /**
     * {@code localNs} of {@code node}'s clock in {@code reference}'s time, with the versions held of the node's
     * factor to that reference (null: whichever answers at that time, as {@link #convert(String, long)}): the times
     * of one span or one trace stay on one clock where the node's reference changed between them. Empty if the node
     * has no factor to that reference.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Optional<ReferenceTime> convert(String node, long localNs, String reference) {
        Optional<ReferenceTime> past = histories == null ? Optional.empty()
                : histories.convert(node, localNs, reference);
        return past.isPresent() ? past : table.get(node)
                .filter(f -> reference == null || f.reference().equals(reference)).map(f -> f.convert(localNs));
    }

    /**
     * {@code localNs} of {@code node}'s clock in its reference's time under the datasheet alone (each clock's rate
     * within ±{@code link.max.drift.ppm} of true, no clock model): the intersection of the datasheet bounds of the
     * versions held around it, each carried to it
     * ({@link io.tracesync.core.history.NodeHistory#convertUnderDatasheet}), or of its latest factor when the
     * history is off ({@link PublishedFactor#convertUnderDatasheet}); empty if
     * the node has none or none carries a datasheet bound. The reference is that of {@link #convert(String, long)}'s
     * answer.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Optional<Conversion> convertUnderDatasheet(String node, long localNs) {
        return convertUnderDatasheet(node, localNs, null);
    }

    /**
     * {@link #convertUnderDatasheet(String, long)} in {@code reference}'s time (null: that of
     * {@link #convert(String, long)}'s answer): empty where no version to that reference carries a datasheet bound.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Optional<Conversion> convertUnderDatasheet(String node, long localNs, String reference) {
        if (histories != null) {
            return histories.convertUnderDatasheet(node, localNs, reference);
        }
        return table.get(node).filter(f -> reference == null || f.reference().equals(reference))
                .flatMap(f -> f.convertUnderDatasheet(localNs));
    }

    /** The node's latest factor, if any. */
    public Optional<PublishedFactor> factor(String node) {
        return table.get(node);
    }

    /** The versions of the node's factor held now, oldest first (increasing in anchor and number); immutable. */
    public List<FactorVersion> history(String node) {
        return histories == null ? List.of() : histories.versions(node);
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
