package io.tracesync.cli;

import io.tracesync.console.SettingsOptions;
import io.tracesync.lttng.LttngImport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tracesync import lttng}: the options of an {@link LttngImport}. */
@Command(name = "lttng",
        header = "Load LTTng kernel traces into the trace topics.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads LTTng kernel traces (CTF, read with Debian's babeltrace2) into the per-node topics "
                + "traces.<node>: inet_sock_local_out/inet_sock_local_in (lttng-modules' network addon; "
                + "addresses and ports from inet_connect/inet_accept) or net_dev_queue/netif_receive_skb with "
                + "TCP headers. The node is the hostname of the trace's environment; timestamps are its raw "
                + "clock in ns.",
                "DIR is a trace directory (with a metadata file) or a directory holding such directories.",
                "A line that cannot be read is reported as TRACE:LINE: reason and nothing is imported (exit "
                        + "code 2).",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ImportLttngCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node of the (single) trace, instead of its hostname.")
    String node;

    @Option(names = "--events-out", paramLabel = "DIR",
            description = "Also write the events as per-node CSV files (DIR/<node>.csv, the format import csv "
                    + "reads).")
    Path eventsOut;

    @Option(names = "--pairs-out", paramLabel = "FILE",
            description = "Also write the matched pairs (sender,send_ns,receiver,recv_ns) for sync-pairs: first "
                    + "send x first receive per segment and flow, as the application matches.")
    Path pairsOut;

    @Option(names = "--files-only", description = "Write only --events-out/--pairs-out, nothing to Kafka.")
    boolean filesOnly;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "LTTng trace directories.")
    List<Path> dirs;

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        return new LttngImport(new LttngImport.Options(dirs, node, eventsOut, pairsOut, filesOnly), options.load(),
                cmd.getOut(), cmd.getErr()).run();
    }
}
