package io.tracesync.app;

import io.tracesync.client.SyncClock;
import io.tracesync.console.SettingsOptions;
import io.tracesync.console.StartupCheck;
import io.tracesync.otel.CorrectedSpansTopology;
import io.tracesync.otel.HostIdentity;
import io.tracesync.otel.OtlpFormat;
import io.tracesync.otel.SpanTimeCorrection;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync correct-spans}: OTLP spans rewritten to reference time as they arrive, until stopped. */
@Command(name = "correct-spans",
        header = "Copy OTLP spans with their times in their reference's clock.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Copies OTLP records (as the Collector's Kafka exporter writes them) from --input to "
                + "--output with every span's start, end and event times converted from its host's clock to its "
                + "reference's by the factors in factors.topic and their history (the client library's SyncClock: "
                + "each time with the versions of its host's factor around it, so a span converts as tightly "
                + "however late it comes), adding the attributes tracesync.status, tracesync.reference, "
                + "tracesync.local_start_ns, tracesync.local_end_ns, tracesync.basis (interpolated between two "
                + "versions, or extrapolated from one: past the newest data), tracesync.from_data_ns and "
                + "tracesync.bound_ns (the true times lie within +- that; with the application's "
                + "link.max.drift.ppm also tracesync.datasheet_bound_ns, the same under the datasheet alone). Spans "
                + "of hosts without factors are copied unchanged, marked tracesync.status=no_factor.",
                "A Kafka Streams application (application id --application-id); runs until stopped (Ctrl-C).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class CorrectSpansCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--input", required = true, paramLabel = "TOPIC", description = "OTLP records in.")
    String input;

    @Option(names = "--output", required = true, paramLabel = "TOPIC", description = "Corrected OTLP records out.")
    String output;

    @Option(names = "--format", paramLabel = "ENCODING", defaultValue = "otlp_proto",
            description = "otlp_proto or otlp_json, in and out (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--host-attributes", paramLabel = "KEY", split = ",",
            defaultValue = "host.id,host.name,service.instance.id",
            description = "Resource attributes naming a span's host, as for import otlp (default: ${DEFAULT-VALUE}).")
    List<String> hostAttributes;

    @Option(names = "--max-wait", paramLabel = "DURATION", defaultValue = "10s",
            description = "How long a record waits, at most, for the data behind its hosts' factors to reach its "
                    + "spans, so that every time converts between two versions of its host's factor; then it is "
                    + "converted with the newest (tracesync.basis=extrapolated). Factors follow their data by a "
                    + "few seconds, so live spans wait that long. 0: convert at once (default: ${DEFAULT-VALUE}).")
    String maxWait;

    @Option(names = "--application-id", paramLabel = "ID",
            description = "Default: the configured application.id followed by -correct-spans.")
    String applicationId;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        OtlpFormat encoding;
        try {
            encoding = OtlpFormat.named(format);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        Duration wait;
        try {
            wait = Durations.parse(maxWait);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--max-wait: " + e.getMessage());
        }
        Settings settings = options.load();
        StartupCheck.run(settings, cl.getErr());
        String id = applicationId != null ? applicationId : settings.get("application.id") + "-correct-spans";
        Properties p = settings.streamsProperties();
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, id);
        PrintWriter err = cl.getErr();
        CountDownLatch stopped = new CountDownLatch(1);
        Map<String, String> clockConfig = new HashMap<>(settings.serdeConfig());
        clockConfig.put(SyncClock.HISTORY_TOPIC_CONFIG, new Topics(settings).factorHistory);
        try (SyncClock clock = SyncClock.start(clockConfig);
                KafkaStreams streams = new KafkaStreams(CorrectedSpansTopology.build(input, output, encoding,
                        new SpanTimeCorrection(new HostIdentity(hostAttributes), clock::convert,
                                host -> newestData(clock, host), clock::convertUnderDatasheet), wait), p)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                streams.close(Duration.ofSeconds(30));
                stopped.countDown();
            }, "correct-spans-stop"));
            streams.setStateListener((now, before) -> {
                if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                    stopped.countDown();
                }
            });
            clock.awaitCaughtUp(Duration.ofSeconds(30));
            err.printf("correcting %s into %s (%s) with the factors of %s for %d nodes, application.id %s; "
                    + "Ctrl-C stops%n", input, output, encoding, settings.get(TracesyncConfig.FACTORS_TOPIC_CONFIG),
                    clock.nodes().size(), id);
            err.flush();
            streams.start();
            stopped.await();
            return streams.state() == KafkaStreams.State.ERROR ? 1 : 0;
        }
    }

    /** The anchor of the host's newest factor: the newest local time of the data behind it. */
    private static OptionalLong newestData(SyncClock clock, String host) {
        return clock.factor(host).map(f -> OptionalLong.of(f.factor().anchorNs())).orElse(OptionalLong.empty());
    }
}
