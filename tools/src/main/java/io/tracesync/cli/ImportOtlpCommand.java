package io.tracesync.cli;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.tracesync.app.ProgressBar;
import io.tracesync.app.SettingsOptions;
import io.tracesync.avro.TraceEvent;
import io.tracesync.otel.HostIdentity;
import io.tracesync.otel.OtlpFormat;
import io.tracesync.otel.OtlpJson;
import io.tracesync.otel.OtlpSpans;
import io.tracesync.otel.SpanPairer;
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
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code tracesync import otlp}: OpenTelemetry spans (OTLP, as the Collector's Kafka exporter encodes them) into the
 * trace topics. Each CLIENT span is paired with its SERVER child, each PRODUCER span with the CONSUMER spans naming
 * it ({@link SpanPairer}); every call across two hosts becomes the four trace events of its request and response,
 * every message the two of its send and receive, written as {@code import csv} writes.
 */
@Command(name = "otlp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads OpenTelemetry spans into the per-node topics traces.<host>: a CLIENT span and its "
                + "SERVER child on another host give a request (client start -> server start) and a response "
                + "(server end -> client end); a PRODUCER span and a CONSUMER span on another host naming it (as "
                + "its parent or by a link) give a message (producer start -> consumer end); see "
                + "docs/REAL-INPUTS.md.",
                "Input: FILEs (otlp_proto: one ExportTraceServiceRequest per file; otlp_json: JSON documents, one "
                + "request each, e.g. JSON lines as the Collector's file exporter writes) or, with --topic, every "
                + "record now in a Kafka topic written by the Collector's Kafka exporter (one request per record).",
                "An undecodable file or record is reported (FILE: reason, TOPIC-PARTITION@OFFSET: reason) and "
                + "skipped; the others are imported and the exit code is 2.",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportOtlpCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--format", paramLabel = "ENCODING", defaultValue = "otlp_proto",
            description = "otlp_proto or otlp_json (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Read this topic from its beginning to its end.")
    String topic;

    @Option(names = "--host-attributes", paramLabel = "KEY", split = ",",
            defaultValue = "host.id,host.name,service.instance.id",
            description = "Resource attributes naming a span's host, the first present wins (default: "
                    + "${DEFAULT-VALUE}).")
    List<String> hostAttributes;

    @Option(names = "--window", paramLabel = "SPANS", defaultValue = "200000",
            description = "A span waits for its other half through at least this many spans, at most twice as "
                    + "many; then it is dropped and counted (default: ${DEFAULT-VALUE}).")
    long window;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "OTLP files (not with --topic).")
    List<Path> files = List.of();

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if ((topic == null) == files.isEmpty()) {
            throw new CommandLine.ParameterException(cl, "Give either FILEs or --topic");
        }
        if (window <= 0) {
            throw new CommandLine.ParameterException(cl, "--window must be positive");
        }
        OtlpFormat encoding;
        try {
            encoding = OtlpFormat.named(format);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        PrintWriter err = cl.getErr();
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                err.println(f + ": no such file");
                return 2;
            }
        }
        Settings settings = options.load();
        Map<String, Long> perNode = new TreeMap<>();
        long start = System.nanoTime();
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            Consumer<TraceEvent> write = e -> {
                writer.write(e);
                perNode.merge(e.getNode(), 1L, Long::sum);
            };
            SpanPairer pairer = new SpanPairer(window, x -> x.traceEvents().forEach(write),
                    m -> m.traceEvents().forEach(write));
            OtlpSpans spans = new OtlpSpans(new HostIdentity(hostAttributes));
            Consumer<ExportTraceServiceRequest> requests = r -> spans.read(r, pairer::accept, pairer::accept);
            long bad = topic != null ? readTopic(settings, encoding, requests, err)
                    : readFiles(encoding, requests, err);
            pairer.finish();
            writer.flush();
            summary(cl.getOut(), writer, perNode, pairer.counts(), spans, bad, (System.nanoTime() - start) / 1e9);
            return bad > 0 ? 2 : 0;
        } catch (IllegalStateException | KafkaException e) {
            err.println("import failed: " + e.getMessage());
            return 1;
        }
    }

    /** Every file's requests, a bar by bytes; the number of files that could not be read (each reported). */
    private long readFiles(OtlpFormat encoding, Consumer<ExportTraceServiceRequest> out, PrintWriter err)
            throws IOException {
        long total = 0;
        for (Path f : files) {
            total += Files.size(f);
        }
        long bad = 0;
        long done = 0;
        try (ProgressBar.Meter bar = ProgressBar.meter(total, err, "importing")) {
            for (Path f : files) {
                try {
                    if (encoding == OtlpFormat.OTLP_JSON) {
                        try (Reader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                            OtlpJson.parseAll(in, out);
                        }
                    } else {
                        out.accept(encoding.decode(Files.readAllBytes(f)));
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
    private long readTopic(Settings settings, OtlpFormat encoding, Consumer<ExportTraceServiceRequest> out,
            PrintWriter err) {
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist");
            }
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
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
                            out.accept(encoding.decode(r.value() == null ? new byte[0] : r.value()));
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

    private static void summary(PrintWriter out, TraceTopicWriter writer, Map<String, Long> perNode,
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
