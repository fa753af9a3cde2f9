package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
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
 * The {@link SyncClock}'s thread: reads every partition of the factors topic and of its history topic from the
 * beginning, applies each committed record of the factors topic to the table and every record of either to the
 * histories; signals when it first reached the end offsets it found at the start. A history topic that does not
 * exist yet is looked for every second meanwhile, and read from the beginning once it appears.
 */
final class FactorPoller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FactorPoller.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final long RETRY_MS = 1000;
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(RETRY_MS);

    private final Consumer<String, SyncFactor> consumer;
    private final String topic;
    private final LatestFactors table;
    private final FactorListener listener;
    private final String historyTopic;
    private final FactorHistories histories;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile RuntimeException failure;
    private volatile boolean historyAssigned;
    /** When to look for a history topic that did not exist, System.nanoTime(). */
    private long lookForHistoryNs;

    /**
     * @param historyTopic the history topic, or null to read the factors topic alone
     * @param histories fed with the records of both topics; null when {@code historyTopic} is
     */
    FactorPoller(Consumer<String, SyncFactor> consumer, String topic, LatestFactors table, FactorListener listener,
            String historyTopic, FactorHistories histories) {
        this.consumer = consumer;
        this.topic = topic;
        this.table = table;
        this.listener = listener;
        this.historyTopic = historyTopic;
        this.histories = histories;
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> partitions = new ArrayList<>(awaitPartitions());
            if (partitions.isEmpty()) {
                return;
            }
            List<TopicPartition> history = historyPartitions();
            partitions.addAll(history);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            LOG.info("reading {} ({} partitions) up to offsets {}", topics(), partitions.size(), end);
            while (closing.getCount() > 0) {
                poll();
                if (caughtUp.getCount() > 0 && reached(end)) {
                    LOG.info("caught up with {}: {} nodes", topics(), table.snapshot().size());
                    caughtUp.countDown();
                }
                if (histories != null) {
                    lookForHistory();
                    histories.expire();
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

    /** The history topic's partitions at the start; none if it is off or does not exist yet (logged). */
    private List<TopicPartition> historyPartitions() {
        if (historyTopic == null) {
            return List.of();
        }
        List<TopicPartition> partitions;
        try {
            partitions = partitionsFor(historyTopic);
        } catch (TimeoutException e) {
            partitions = List.of();
        }
        historyAssigned = !partitions.isEmpty();
        if (!historyAssigned) {
            LOG.info("history topic {} does not exist yet: reading {} alone until it appears", historyTopic, topic);
            lookForHistoryNs = System.nanoTime() + RETRY_NS;
        }
        return partitions;
    }

    /** Once a second, until it appears: assigns the history topic's partitions too, read from the beginning. */
    private void lookForHistory() {
        if (historyAssigned || System.nanoTime() - lookForHistoryNs < 0) {
            return;
        }
        lookForHistoryNs = System.nanoTime() + RETRY_NS;
        List<TopicPartition> history;
        try {
            history = partitionsFor(historyTopic);
        } catch (TimeoutException e) {
            LOG.warn("no metadata for {} yet: {}", historyTopic, e.getMessage());
            return;
        }
        if (history.isEmpty()) {
            return;
        }
        List<TopicPartition> partitions = new ArrayList<>(consumer.assignment());
        partitions.addAll(history);
        consumer.assign(partitions);
        consumer.seekToBeginning(history);
        historyAssigned = true;
        LOG.info("history topic {} appeared: reading its {} partitions from the beginning", historyTopic,
                history.size());
    }

    private List<TopicPartition> partitionsFor(String name) {
        return consumer.partitionsFor(name).stream().map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
    }

    private String topics() {
        return historyAssigned ? topic + " and " + historyTopic : topic;
    }

    /**
     * The topic's partitions, waiting while it does not exist yet or the brokers do not answer; empty if closed
     * meanwhile.
     */
    private List<TopicPartition> awaitPartitions() {
        boolean logged = false;
        while (closing.getCount() > 0) {
            try {
                List<TopicPartition> partitions = partitionsFor(topic);
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
                        .ifPresent(f -> apply(r.topic(), f));
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

    /** A record of the factors topic goes to the histories, then the table; one of the history to the histories. */
    private void apply(String from, FactorRecord r) {
        if (!from.equals(topic)) {
            histories.add(r);
            return;
        }
        if (histories != null) {
            histories.addLatest(r);
        }
        table.apply(r).ifPresent(c -> listener.changed(c.node(), c.previous(), c.current()));
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
        LOG.error("stopped reading {}", topics(), e);
    }

    /** Waits until the end offsets were reached once, or the thread ended. */
    boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        boolean ended = caughtUp.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        RuntimeException f = failure;
        if (f != null) {
            throw new IllegalStateException("reading " + topics() + " failed", f);
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
