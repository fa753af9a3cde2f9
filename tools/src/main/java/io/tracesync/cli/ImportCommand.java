package io.tracesync.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code tracesync import}: recorded traces into the trace topics, one subcommand per format. */
@Command(name = "import",
        header = "Load recorded traces (CSV, LTTng, pcap, OTLP) into the trace topics.",
        mixinStandardHelpOptions = true,
        subcommands = {ImportCsvCommand.class, ImportPcapCommand.class, ImportLttngCommand.class,
                ImportOtlpCommand.class},
        description = "Loads recorded traces into the per-node trace topics traces.<node> the application reads "
                + "(Avro TraceEvent keyed by SegmentKey, each in its segment's partition).")
public final class ImportCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing the format: import csv PATH..., "
                + "import pcap --node NAME FILE..., import lttng DIR... or import otlp FILE...|--topic T");
    }
}
