package io.tracesync.client.example;

import io.tracesync.avro.TraceEvent;
import io.tracesync.client.SyncClock;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.schema.SpecificAvroSerializer;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An example consumer of {@code sync.factors} and its history: copies a trace topic to another with every event's
 * timestamp in reference time, by the factors in force at that timestamp ({@link EventRewriter} says how each record
 * is rewritten). At least once: after each batch the
 * output is flushed, then the input offsets are committed to the group, so a restart resumes after the last
 * committed batch and may write a batch twice. One instance per group: it reads every partition of the input.
 */
public final class TimestampRewriter {

    private static final Logger LOG = LoggerFactory.getLogger(TimestampRewriter.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final RewriterOptions options;
    private final KafkaConsumer<byte[], byte[]> input;
    private final CountDownLatch stopping = new CountDownLatch(1);

    public TimestampRewriter(RewriterOptions options) {
        this.options = options;
        Map<String, Object> props = new HashMap<>(options.client());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.input = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    public static void main(String[] args) {
        RewriterOptions options;
        try {
            options = RewriterOptions.parse(args);
        } catch (RewriterOptions.UsageException | IOException e) {
            System.err.println(e.getMessage());
            System.err.print(RewriterOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.print(RewriterOptions.USAGE);
            return;
        }
        TimestampRewriter rewriter = new TimestampRewriter(options);
        CountDownLatch ended = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (ended.getCount() > 0) {
                rewriter.stop();
                try {
                    ended.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }));
        int status = 0;
        try {
            System.out.println(rewriter.run() + " records written to " + options.output());
        } catch (KafkaException | IllegalStateException | InterruptedException e) {
            LOG.error("timestamp rewriter failed", e);
            status = 1;
        } finally {
            ended.countDown();
        }
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Rewrites until {@link #stop()} is called or, with {@code --to-end}, the input's end offsets found at the
     * start are reached; closes the input.
     *
     * @return how many records were written
     */
    public long run() throws InterruptedException {
        Map<String, Object> client = new HashMap<>(options.client());
        SpecificAvroDeserializer<TraceEvent> reader = new SpecificAvroDeserializer<>(TraceEvent.class);
        reader.configure(client, false);
        SpecificAvroSerializer<TraceEvent> writer = new SpecificAvroSerializer<>(TraceEvent.class);
        writer.configure(client, false);
        Map<String, Object> producerProps = new HashMap<>(client);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        long written = 0;
        try (SyncClock clock = SyncClock.start(client);
             KafkaProducer<byte[], byte[]> output = new KafkaProducer<>(producerProps, new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            if (!clock.awaitCaughtUp(options.catchUp())) {
                LOG.warn("factors not caught up after {}: starting with {} nodes", options.catchUp(),
                        clock.nodes().size());
            }
            EventRewriter rewriter = new EventRewriter(options.output(), clock::convert, reader, writer);
            List<TopicPartition> partitions = input.partitionsFor(options.input()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (partitions.isEmpty()) {
                throw new IllegalStateException("no topic " + options.input());
            }
            input.assign(partitions);
            Map<TopicPartition, Long> end = options.toEnd() ? input.endOffsets(partitions) : Map.of();
            while (stopping.getCount() > 0 && !(options.toEnd() && reached(end))) {
                ConsumerRecords<byte[], byte[]> records = input.poll(POLL);
                if (records.isEmpty()) {
                    continue;
                }
                AtomicReference<Exception> failed = new AtomicReference<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    output.send(rewriter.rewrite(r), (m, e) -> {
                        if (e != null) {
                            failed.compareAndSet(null, e);
                        }
                    });
                    written++;
                }
                output.flush();
                if (failed.get() != null) {
                    throw new KafkaException("writing " + options.output() + " failed", failed.get());
                }
                input.commitSync();
            }
        } catch (WakeupException e) {
            if (stopping.getCount() > 0) {
                throw e;
            }
        } finally {
            input.close();
        }
        return written;
    }

    /** Asks {@link #run()} to end after the current batch; from any thread. */
    public void stop() {
        stopping.countDown();
        input.wakeup();
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> input.position(e.getKey()) >= e.getValue());
    }
}
