package io.tracesync.faults;

import io.tracesync.sim.MalformedRecords.Raw;
import io.tracesync.streams.Settings;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The trace records of a fault run written in order at a steady rate by a thread of their own, every record exactly
 * once: one request in flight (a batch refused while a partition is not yet open cannot be overtaken by the next
 * one), and around a broker fault the writer {@link #pause pauses} with everything acknowledged and closes its
 * producer, so that no record is in flight when the broker dies (an idempotent producer kept open across a broker
 * restart was once refused for good afterwards: its sequence numbers against the broker's recovered state).
 */
final class PacedTraffic implements AutoCloseable {

    private final Properties config = new Properties();
    private final List<Raw> records;
    private final double perSecond;
    private final Thread thread;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Object lock = new Object();
    private KafkaProducer<byte[], byte[]> producer;
    private int next;
    private boolean pauseRequested;
    private boolean paused;
    private boolean unpaced;
    private boolean closed;

    PacedTraffic(Settings settings, List<Raw> records, double perSecond) {
        config.putAll(settings.streamsProperties());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        this.records = records;
        this.perSecond = perSecond;
        this.thread = new Thread(this::write, "fault-run-traffic");
        thread.setDaemon(true);
    }

    void start() {
        producer = newProducer();
        thread.start();
    }

    /** Records written so far. */
    int written() {
        synchronized (lock) {
            return next;
        }
    }

    /** Stops writing once every record sent so far is acknowledged, and closes the producer; returns then. */
    void pause() throws InterruptedException {
        synchronized (lock) {
            pauseRequested = true;
            while (!paused && thread.isAlive()) {
                lock.wait(100);
            }
        }
        check();
    }

    /** Writes on, with a new producer, at the rate, as if the pause had not been. */
    void resume() {
        synchronized (lock) {
            pauseRequested = false;
            lock.notifyAll();
        }
    }

    /** Writes every record left without pacing, and returns once all are acknowledged. */
    void finish() throws InterruptedException {
        synchronized (lock) {
            unpaced = true;
            lock.notifyAll();
        }
        thread.join();
        check();
    }

    private void check() {
        if (failure.get() != null) {
            throw new IllegalStateException("writing the traces failed: " + failure.get(), failure.get());
        }
    }

    private void write() {
        try {
            long start = System.nanoTime();
            long pausedNs = 0;
            while (true) {
                Raw r;
                synchronized (lock) {
                    if (pauseRequested) {
                        long began = System.nanoTime();
                        producer.flush();
                        producer.close();
                        producer = null;
                        paused = true;
                        lock.notifyAll();
                        while (pauseRequested && !closed) {
                            lock.wait();
                        }
                        paused = false;
                        pausedNs += System.nanoTime() - began;
                        producer = newProducer();
                    }
                    if (closed || next == records.size()) {
                        break;
                    }
                    long wait = unpaced ? 0 : start + pausedNs + (long) (next * 1e9 / perSecond) - System.nanoTime();
                    if (wait > 0) {
                        lock.wait(Math.max(1, wait / 1_000_000));
                        continue;
                    }
                    r = records.get(next++);
                    producer.send(new ProducerRecord<>(r.topic(), r.key(), r.value()), (meta, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, error);
                        }
                    });
                }
            }
            synchronized (lock) {
                if (producer != null) {
                    producer.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private KafkaProducer<byte[], byte[]> newProducer() {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void close() throws InterruptedException {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        thread.join(30_000);
        synchronized (lock) {
            if (producer != null) {
                producer.close();
                producer = null;
            }
        }
    }
}
