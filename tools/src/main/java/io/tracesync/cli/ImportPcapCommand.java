package io.tracesync.cli;

import io.tracesync.console.SettingsOptions;
import io.tracesync.pcap.PcapImport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tracesync import pcap}: the options of a {@link PcapImport}. */
@Command(name = "pcap",
        header = "Load one node's packet captures into its trace topic.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads one node's packet captures (pcap or pcapng; Ethernet, Linux cooked SLL/SLL2 or raw IP; "
                + "TCP over IPv4 and IPv6) into its topic traces.<node>: a segment from one of the node's addresses is "
                + "a SEND, one to them a RECV, at the capture's timestamp (the node's clock).",
                "The node's addresses are the --address ones or else inferred: the address talking with the most "
                + "peers, if exactly one does (docs/REAL-INPUTS.md).",
                "Every file is read before anything is written: a file that cannot be read is reported as "
                + "FILE: reason and nothing is imported (exit code 2).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportPcapCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--node", required = true, paramLabel = "NAME", description = "The node that captured the files.")
    String node;

    @Option(names = "--address", paramLabel = "IP",
            description = "An address of the node (repeatable); default: inferred from the captures.")
    List<String> addresses = new ArrayList<>();

    @Option(names = "--events-out", paramLabel = "DIR",
            description = "Write DIR/NAME.csv in the simulator's trace file format (for import csv) instead of the "
                    + "topics.")
    Path eventsOut;

    @Mixin
    SettingsOptions options;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "pcap or pcapng captures of the node.")
    List<Path> files;

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        return new PcapImport(new PcapImport.Options(node, addresses, eventsOut, files), options.load(),
                cmd.getOut(), cmd.getErr()).run();
    }
}
