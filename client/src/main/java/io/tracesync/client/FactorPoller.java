package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SyncClock}'s thread: reads every partition of the factors topic from the beginning and applies each
 * committed record to the table; signals when it first reached the end offsets it found at the start.
 */
final class FactorPoller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FactorPoller.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final long RETRY_MS = 1000;

    private final Consumer<String, SyncFactor> consumer;
    private final String topic;
    private final LatestFactors table;
    private final FactorListener listener;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile RuntimeException failure;

    FactorPoller(Consumer<String, SyncFactor> consumer, String topic, LatestFactors table,
            FactorListener listener) {
        this.consumer = consumer;
        this.topic = topic;
        this.table = table;
        this.listener = listener;
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> partitions = awaitPartitions();
            if (partitions.isEmpty()) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            LOG.info("reading {} ({} partitions) up to offsets {}", topic, partitions.size(), end);
            while (closing.getCount() > 0) {
                poll();
                if (caughtUp.getCount() > 0 && reached(end)) {
                    LOG.info("caught up with {}: {} nodes", topic, table.snapshot().size());
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            if (closing.getCount() > 0) {
                fail(e);
            }
        } catch (RuntimeException e) {
            fail(e);
        } finally {
            caughtUp.countDown();
            consumer.close();
        }
    }

    /**
     * The topic's partitions, waiting while it does not exist yet or the brokers do not answer; empty if closed
     * meanwhile.
     */
    private List<TopicPartition> awaitPartitions() {
        boolean logged = false;
        while (closing.getCount() > 0) {
            try {
                List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                if (!partitions.isEmpty()) {
                    return partitions;
                }
                if (!logged) {
                    LOG.info("waiting for topic {} to exist", topic);
                    logged = true;
                }
            } catch (TimeoutException e) {
                LOG.warn("no metadata for {} yet: {}", topic, e.getMessage());
            }
            pause();
        }
        return List.of();
    }

    private void poll() {
        try {
            for (ConsumerRecord<String, SyncFactor> r : consumer.poll(POLL)) {
                FactorRecord.read(r.key(), r.value(), r.topic() + "-" + r.partition() + "@" + r.offset())
                        .flatMap(table::apply).ifPresent(c -> listener.changed(c.node(), c.previous(), c.current()));
            }
        } catch (RecordDeserializationException e) {
            TopicPartition tp = e.topicPartition();
            if (SchemaRegistryUnavailableException.isCause(e)) {
                LOG.warn("schema registry unavailable at {}@{}, retrying: {}", tp, e.offset(), e.getMessage());
                pause();
            } else {
                LOG.error("skipped an unreadable factor at {}@{}: {}", tp, e.offset(), e.getMessage());
                consumer.seek(tp, e.offset() + 1);
            }
        }
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    private void pause() {
        try {
            closing.await(RETRY_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WakeupException();
        }
    }

    private void fail(RuntimeException e) {
        failure = e;
        LOG.error("stopped reading {}", topic, e);
    }

    /** Waits until the end offsets were reached once, or the thread ended. */
    boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        boolean ended = caughtUp.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        RuntimeException f = failure;
        if (f != null) {
            throw new IllegalStateException("reading " + topic + " failed", f);
        }
        return ended && closing.getCount() > 0;
    }

    boolean caughtUp() {
        return caughtUp.getCount() == 0 && failure == null && closing.getCount() > 0;
    }

    /** Asks the thread to end; it closes the consumer. */
    void close() {
        closing.countDown();
        consumer.wakeup();
    }
}
