package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.files.PairsCsv;
import io.tracesync.lttng.ScpTrace;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TracesyncApp;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import lttng} of the real scp trace (docs/REAL-INPUTS.md) into the real broker and registry: the streamed
 * factors equal the offline answer on the pairs the same import wrote.
 */
@ExtendWith(SharedKafkaEnvironment.class)
@Tag("babeltrace2")
class LttngImportTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void theStreamedFactorsOfTheScpTraceEqualTheOfflineAnswer() throws Exception {
        String id = "it-lttng-" + UUID.randomUUID();
        Settings settings = Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200")
                .with("factors.min.change", "0")
                .with("links.min.change", "0");
        Path pairsCsv = dir.resolve("pairs.csv");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = TracesyncCommand.commandLine().setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute("import", "lttng", "--pairs-out", pairsCsv.toString(),
                        "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url",
                        SharedKafkaEnvironment.registryUrl(), "-D", "traces.topic.prefix=" + id + ".",
                        ScpTrace.path().toString());
        assertEquals(0, exit, err.toString());
        assertTrue(out.toString().startsWith("imported " + ScpTrace.EVENTS
                + " packet events of 2 nodes from 2 trace(s)"), out.toString());

        List<SendReceive> pairs = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(pairsCsv)) {
            PairsCsv.read(in, pairsCsv.toString(), pairs::add);
        }
        assertEquals(ScpTrace.PAIRS, pairs.size());
        assertEquals(ScpTrace.PAIRS_FROM_SOURCE, pairs.stream().filter(p -> p.sender().equals(ScpTrace.SOURCE))
                .count());
        Map<String, NodeFactor> offline = OfflineSync.factors(pairs, settings.linkOptions(),
                settings.networkOptions());
        assertEquals(2, offline.size());
        try (TracesyncApp app = TracesyncApp.start(settings)) {
            FactorAnswers.await(settings, offline, WAIT);
        }
    }
}
