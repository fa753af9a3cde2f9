package io.tracesync.faults;

import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Every record committed to {@code sync.factors}, read as a consumer reads it (read_committed, from the beginning)
 * by a thread of its own, with the time each was first seen: when factors flowed again after a fault, and what
 * was ever committed.
 */
final class FactorWatch implements AutoCloseable {

    /** A committed factor record and when this reader saw it (ms since the epoch). */
    record Seen(long atMs, ConsumerRecord<String, SyncFactor> record) {
    }

    private final KafkaConsumer<String, SyncFactor> consumer;
    private final String topic;
    private final List<Seen> seen = new ArrayList<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean closed;

    FactorWatch(Settings settings) {
        Topics topics = new Topics(settings);
        this.consumer = new KafkaConsumer<>(CommittedRecords.readerProperties(settings), new StringDeserializer(),
                topics.syncFactor.deserializer());
        this.topic = topics.factors;
        this.thread = new Thread(this::read, "fault-run-factors");
        thread.setDaemon(true);
    }

    void start(Duration timeout) {
        List<TopicPartition> parts = consumer.partitionsFor(topic, timeout).stream()
                .map(i -> new TopicPartition(topic, i.partition())).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        thread.start();
    }

    private void read() {
        try {
            while (!closed) {
                for (ConsumerRecord<String, SyncFactor> r : consumer.poll(Duration.ofMillis(50))) {
                    synchronized (seen) {
                        seen.add(new Seen(System.currentTimeMillis(), r));
                        seen.notifyAll();
                    }
                }
            }
        } catch (WakeupException closing) {
            // close() ends the loop
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    /** When the first record committed after {@code afterMs} was seen; fails after the timeout. */
    long firstAfter(long afterMs, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        synchronized (seen) {
            while (true) {
                for (int i = seen.size() - 1; i >= 0 && seen.get(i).atMs() > afterMs; i--) {
                    if (i == 0 || seen.get(i - 1).atMs() <= afterMs) {
                        return seen.get(i).atMs();
                    }
                }
                check();
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new IllegalStateException("no factor committed within " + timeout.toSeconds()
                            + " s after the fault");
                }
                seen.wait(Math.min(left, 200));
            }
        }
    }

    /** How many records have been seen. */
    int count() {
        synchronized (seen) {
            return seen.size();
        }
    }

    /** Every record seen so far, in the order seen. */
    List<Seen> all() {
        check();
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    private void check() {
        if (failure.get() != null) {
            throw new IllegalStateException("reading " + topic + " failed: " + failure.get(), failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        consumer.wakeup();
        thread.join(10_000);
        consumer.close();
    }
}
