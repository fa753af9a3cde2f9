package io.tracesync.streams;

import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.matcher.SegmentPartitioning;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes trace events to the per-node topics the application reads ({@code traces.<node>}), or to the one
 * multiplexed topic when {@code traces.topic} is set, keyed by segment key and placed in the partition of their
 * segment ({@link SegmentPartitioning}, so that {@code traces.partitioned.by.segment} may be set), creating topics
 * on first use. For importers, the simulator, the demo and the benchmarks.
 */
public final class TraceTopicWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TraceTopicWriter.class);

    private final Settings settings;
    private final Topics topics;
    private final String prefix;
    private final String multiplexed;
    private final Producer<SegmentKey, TraceEvent> producer;
    private final Set<String> known = new HashSet<>();
    private final Map<String, Integer> partitions = new HashMap<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private long written;

    public TraceTopicWriter(Settings settings) {
        this.settings = settings;
        this.topics = new Topics(settings);
        this.prefix = settings.get(TracesyncConfig.TRACES_TOPIC_PREFIX_CONFIG);
        this.multiplexed = settings.get(TracesyncConfig.TRACES_TOPIC_CONFIG);
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        producer = new KafkaProducer<>(p, topics.segmentKey.serializer(), topics.traceEvent.serializer());
    }

    /** The topic of a node's events. */
    public String topicOf(String node) {
        return multiplexed.isEmpty() ? prefix + node : multiplexed;
    }

    /** Creates the topics of these nodes now (before a pattern subscriber starts, say). */
    public void createTopics(Collection<String> nodes) {
        List<NewTopic> missing = nodes.stream().map(this::topicOf).distinct().filter(known::add)
                .map(t -> new NewTopic(t, (int) settings.integer(TracesyncConfig.TOPICS_PARTITIONS_CONFIG),
                        (short) settings.integer(TracesyncConfig.TOPICS_REPLICATION_FACTOR_CONFIG)))
                .toList();
        if (missing.isEmpty()) {
            return;
        }
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            TopicCreator.create(admin, missing);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LOG.info("created {} trace topics", missing.size());
    }

    public void write(TraceEvent e) {
        write(e, ackedAtNanos -> { });
    }

    /** Writes {@code e}; {@code acked} gets {@link System#nanoTime()} when the broker has acknowledged it. */
    public void write(TraceEvent e, LongConsumer acked) {
        String topic = topicOf(e.getNode());
        if (!known.contains(topic)) {
            createTopics(List.of(e.getNode()));
        }
        int partition = SegmentPartitioning.partition(SegmentPartitioning.key(e.getSeq(), e.getAckSeq(),
                e.getFlags()), partitions.computeIfAbsent(topic, t -> producer.partitionsFor(t).size()));
        producer.send(new ProducerRecord<>(topic, partition,
                new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), e), (meta, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    } else {
                        acked.accept(System.nanoTime());
                    }
                });
        written++;
        check();
    }

    private void check() {
        Exception f = failure.get();
        if (f != null) {
            throw new IllegalStateException("cannot write trace events: " + f.getMessage(), f);
        }
    }

    public long written() {
        return written;
    }

    /** Waits until every event written so far is acknowledged; throws if any was not. */
    public void flush() {
        producer.flush();
        check();
    }

    @Override
    public void close() {
        producer.close();
    }
}
