package io.tracesync.otlp;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tracesync.avro.TraceEvent;
import io.tracesync.console.UserError;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.StartupCheck;
import io.tracesync.otel.HostIdentity;
import io.tracesync.otel.OtlpFormat;
import io.tracesync.otel.OtlpJson;
import io.tracesync.otel.OtlpSpans;
import io.tracesync.otel.SpanPairer;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * OpenTelemetry spans (OTLP, as the Collector's Kafka exporter encodes them) into the trace topics. Each CLIENT span
 * is paired with its SERVER child, each PRODUCER span with the CONSUMER spans naming it ({@link SpanPairer}); every
 * call across two hosts becomes the four trace events of its request and response, every message the two of its
 * send and receive, written as {@code import csv} writes.
 */
public final class OtlpImport {

    /** What to import: {@code files}, or every record now in {@code topic}. */
    public record Options(OtlpFormat encoding, String topic, List<Path> files, List<String> hostAttributes,
            long window) {
    }

    private final Options options;
    private final Settings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    public OtlpImport(Options options, Settings settings, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** Runs the import: 0 when done, 1 when Kafka refused the events, 2 when an input was undecodable. */
    public int run() throws IOException {
        for (Path f : options.files()) {
            if (!Files.isRegularFile(f)) {
                throw new UserError(f + ": no such file");
            }
        }
        StartupCheck.run(settings, err);
        Map<String, Long> perNode = new TreeMap<>();
        long start = System.nanoTime();
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            Consumer<TraceEvent> write = e -> {
                writer.write(e);
                perNode.merge(e.getNode(), 1L, Long::sum);
            };
            SpanPairer pairer = new SpanPairer(options.window(), x -> x.traceEvents().forEach(write),
                    m -> m.traceEvents().forEach(write));
            OtlpSpans spans = new OtlpSpans(new HostIdentity(options.hostAttributes()));
            Consumer<ExportTraceServiceRequest> requests = r -> spans.read(r, pairer::accept, pairer::accept);
            long bad = options.topic() != null ? readTopic(requests) : readFiles(requests);
            pairer.finish();
            writer.flush();
            summary(writer, perNode, pairer.counts(), spans, bad, (System.nanoTime() - start) / 1e9);
            return bad > 0 ? 2 : 0;
        } catch (IllegalStateException | KafkaException e) {
            err.println("error: import failed: " + e.getMessage());
            return 1;
        }
    }

    /** Every file's requests, a bar by bytes; the number of files that could not be read (each reported). */
    private long readFiles(Consumer<ExportTraceServiceRequest> requests) throws IOException {
        long total = 0;
        for (Path f : options.files()) {
            total += Files.size(f);
        }
        long bad = 0;
        long done = 0;
        try (ProgressBar.Meter bar = ProgressBar.meter(total, err, "importing")) {
            for (Path f : options.files()) {
                try {
                    if (options.encoding() == OtlpFormat.OTLP_JSON) {
                        try (Reader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                            OtlpJson.parseAll(in, requests);
                        }
                    } else {
                        requests.accept(options.encoding().decode(Files.readAllBytes(f)));
                    }
                } catch (IOException e) {
                    bad++;
                    err.println(f + ": " + reason(e));
                }
                done += Files.size(f);
                bar.update(done);
            }
        }
        return bad;
    }

    /** Every record now in the topic, a bar by records; the number of records that could not be decoded. */
    private long readTopic(Consumer<ExportTraceServiceRequest> requests) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(CommittedRecords.readerProperties(settings),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(options.topic(), Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + options.topic() + " does not exist");
            }
            List<TopicPartition> parts = infos.stream()
                    .map(i -> new TopicPartition(options.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(parts));
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(parts);
            long total = parts.stream().mapToLong(tp -> end.get(tp) - begin.get(tp)).sum();
            long done = 0;
            long bad = 0;
            try (ProgressBar.Meter bar = ProgressBar.meter(total, err, "importing")) {
                end.entrySet().removeIf(e -> e.getValue() <= begin.get(e.getKey()));
                while (!end.isEmpty()) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                        Long last = end.get(tp);
                        if (last == null || r.offset() >= last) {
                            continue;
                        }
                        try {
                            requests.accept(options.encoding().decode(r.value() == null ? new byte[0] : r.value()));
                        } catch (IOException e) {
                            bad++;
                            err.println(tp + "@" + r.offset() + ": " + reason(e));
                        }
                        bar.update(++done);
                    }
                    end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
                }
            }
            return bad;
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private void summary(TraceTopicWriter writer, Map<String, Long> perNode,
            SpanPairer.Counts c, OtlpSpans spans, long bad, double seconds) {
        out.printf(Locale.ROOT, "imported %,d calls and %,d messages (%,d events) of %,d hosts from %,d "
                + "client/server/producer/consumer spans in %.1f s%n", c.exchanges(), c.messages(),
                4 * c.exchanges() + 2 * c.messages(), perNode.size(), c.spans(), seconds);
        out.printf(Locale.ROOT, "left out: %,d same-host calls or messages, %,d root server or consumer spans, "
                + "%,d duplicate spans, %,d spans or consumer links without their other half; "
                + "%,d spans of other kinds, %,d without a host attribute, "
                + "%,d invalid%s%n", c.sameHost(), c.roots(), c.duplicates(), c.dropped(), spans.otherKinds(),
                spans.withoutHost(), spans.invalid(),
                bad > 0 ? String.format(Locale.ROOT, "; %,d undecodable input(s), listed on stderr", bad) : "");
        out.printf("%-20s %12s  %s%n", "node", "events", "topic");
        perNode.forEach((node, n) -> out.printf(Locale.ROOT, "%-20s %,12d  %s%n", node, n, writer.topicOf(node)));
        out.flush();
    }
}
