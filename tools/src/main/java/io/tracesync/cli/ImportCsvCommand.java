package io.tracesync.cli;

import io.tracesync.console.SettingsOptions;
import io.tracesync.csv.CsvImport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tracesync import csv}: the options of a {@link CsvImport}. */
@Command(name = "csv",
        header = "Load trace files (tracesync simulate's CSV) into the trace topics.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads trace files written by tracesync simulate (node,ts_ns,direction,saddr,daddr,sport,dport,"
                + "seq,ack,flags; header optional) into the per-node topics traces.<node>, created as the "
                + "application's writers create them (topics.partitions, topics.replication.factor).",
                "PATH is a trace file, or a directory: a simulate run (its events/*.csv) or one holding trace "
                + "files (its *.csv that start with the header).",
                "Every file is checked before anything is written: a line that cannot be read is reported as "
                + "FILE:LINE: reason and, unless --skip-bad-lines, nothing is imported (exit code 2).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportCsvCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--skip-bad-lines",
            description = "Import the good lines and list every bad one (FILE:LINE: reason) on stderr.")
    boolean skipBadLines;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Trace files or directories.")
    List<Path> paths;

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        return new CsvImport(paths, skipBadLines, options.load(), cmd.getOut(), cmd.getErr()).run();
    }
}
