package io.tracesync.cli;

import io.tracesync.console.SettingsOptions;
import io.tracesync.otel.OtlpFormat;
import io.tracesync.otlp.OtlpImport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tracesync import otlp}: the options of an {@link OtlpImport}. */
@Command(name = "otlp",
        header = "Load OpenTelemetry spans into the trace topics.",
        mixinStandardHelpOptions = true, sortOptions = false,
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
        return new OtlpImport(new OtlpImport.Options(encoding, topic, files, hostAttributes, window), options.load(),
                cl.getOut(), cl.getErr()).run();
    }
}
