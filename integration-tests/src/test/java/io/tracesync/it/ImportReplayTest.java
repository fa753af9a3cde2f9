package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.files.PairsCsv;
import io.tracesync.streams.FactorsTopic;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncApp;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import csv} and {@code replay} on the real broker and registry: a simulated run imported by the packaged
 * jar (the docker-compose job's syntax) gives, live, the offline answer; a replay under a new application id, and
 * one under the live id after {@code --reset}, give exactly the same factors.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class ImportReplayTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void replayedFactorsEqualTheLiveRunAndTheOfflineAnswer() throws Exception {
        String id = "it-replay-" + UUID.randomUUID();
        Settings settings = settings(id);
        Path run = dir.resolve("run");
        assertEquals(0, Cli.run("simulate", "--out", run.toString(), "--nodes", "5", "--duration", "20s", "--seed",
                "11").exit());
        List<Path> files;
        try (Stream<Path> list = Files.list(run.resolve("events"))) {
            files = list.toList();
        }
        long events = 0;
        for (Path f : files) {
            events += Files.readAllLines(f).size() - 1;
        }

        String imported = PackagedJar.TOOLS.run(120, "import", "csv", run.toString(), "--bootstrap-servers",
                SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url",
                SharedKafkaEnvironment.registryUrl(), "-D", "traces.topic.prefix=" + id + ".");
        assertTrue(imported.startsWith(String.format("imported %,d events of 5 nodes from 5 file(s) into 5 topic(s)",
                events)), imported);
        for (Path f : files) {
            String node = f.getFileName().toString().replace(".csv", "");
            assertTrue(imported.lines().anyMatch(l -> l.startsWith(node + " ") && l.endsWith(" " + id + "." + node)),
                    imported);
        }

        Map<String, NodeFactor> offline = OfflineSync.factors(pairs(run), settings.linkOptions(),
                settings.networkOptions());
        Map<String, SyncFactor> live;
        try (TracesyncApp app = TracesyncApp.start(settings)) {
            FactorAnswers.await(settings, offline, WAIT);
            live = FactorsTopic.latest(settings, WAIT);
            assertTrue(app.awaitRunning(WAIT));
            Cli refused = Cli.run(replay(settings, "--reset", "--until-caught-up"));
            assertEquals(1, refused.exit(), refused.err());
            assertTrue(refused.err().contains("application " + id + " is running"), refused.err());
        }

        List<String> internal;
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            internal = admin.listTopics().names().get().stream().filter(t -> t.startsWith(id + "-")).sorted()
                    .toList();
        }
        assertTrue(InternalTopics.all(id).containsAll(internal), internal.toString());
        assertTrue(internal.size() >= 7, internal.toString());

        // a new application id, its factors in a topic of their own
        Settings apart = settings.with("factors.topic", "sync.factors-" + id + "-replay");
        Cli fresh = Cli.run(replay(apart, "--until-caught-up"));
        assertEquals(0, fresh.exit(), fresh.err());
        assertTrue(fresh.err().startsWith("replaying under application.id " + id + "-replay-"), fresh.err());
        assertReplayed(fresh.out(), events, offline.size());
        System.out.print(imported.lines().findFirst().orElseThrow() + "\n" + fresh.err() + fresh.out());
        Map<String, SyncFactor> replayed = FactorsTopic.latest(apart, WAIT);
        assertNull(FactorsTopic.differences(offline, replayed));
        assertSameFactors(live, replayed);

        // the live application id, reset: offsets to the beginning, its internal topics deleted
        Cli reset = Cli.run(replay(settings, "--reset", "--until-caught-up"));
        assertEquals(0, reset.exit(), reset.err());
        assertTrue(reset.err().startsWith("reset application.id " + id + ": 5 trace topics (15 partitions) to their "
                + "earliest offsets; deleted "), reset.err());
        internal.forEach(t -> assertTrue(reset.err().contains(t), t + " not deleted: " + reset.err()));
        assertReplayed(reset.out(), events, offline.size());
        System.out.print(reset.err() + reset.out());
        Map<String, SyncFactor> again = FactorsTopic.latest(settings, WAIT);
        assertNull(FactorsTopic.differences(offline, again));
        assertSameFactors(live, again);
        // the live run's history was deleted: the replay's alone, each node's versions once, in order
        assertTrue(reset.err().contains(" records of the factor history " + new Topics(settings).factorHistory
                + " deleted"), reset.err());
        Map<String, Long> lastVersion = new HashMap<>();
        for (var r : FactorsTopic.readAll(settings, new Topics(settings).factorHistory, WAIT)) {
            Long before = lastVersion.put(r.key(), r.value().getVersion());
            assertTrue(before == null || before < r.value().getVersion(), r.key() + ": version "
                    + r.value().getVersion() + " after " + before);
        }
        assertEquals(offline.keySet(), lastVersion.keySet());
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            assertEquals(0, new InputLag(admin, settings).records());
        }
    }

    @Test
    void skippedBadLinesAreListedAndTheOthersImported() throws Exception {
        String id = "it-import-" + UUID.randomUUID();
        Settings settings = settings(id);
        Path file = Files.writeString(dir.resolve("a.csv"), "a,1,SEND,10.0.0.1,10.0.0.2,1,2,3,4,PA\n"
                + "a,2,SEND,10.0.0.1,10.0.0.2,1,2,3,4,XX\n"
                + "a,3,SEND,10.0.0.1,10.0.0.2,1,2,5,4,PA\n");
        String[] connection = {"--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
            "--schema-registry-url", SharedKafkaEnvironment.registryUrl(), "-D", "traces.topic.prefix=" + id + "."};
        Cli strict = Cli.run(concat(new String[] {"import", "csv", file.toString()}, connection));
        assertEquals(2, strict.exit(), strict.err());
        Cli skipping = Cli.run(concat(new String[] {"import", "csv", file.toString(), "--skip-bad-lines"}, connection));
        assertEquals(0, skipping.exit(), skipping.err());
        assertEquals(file + ":2: flags 'XX' are neither TCP flag letters (FSRPAUEC) nor a flags byte (0..255)",
                skipping.err().strip());
        assertTrue(skipping.out().startsWith("imported 2 events of 1 nodes from 1 file(s) into 1 topic(s)"),
                skipping.out());
        assertTrue(skipping.out().contains("1 bad line(s) skipped, listed on stderr"), skipping.out());
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            InputLag lag = new InputLag(admin, settings);
            assertEquals(List.of(id + ".a"), lag.topics());
            assertEquals(2, lag.records()); // the strict run wrote nothing
        }
    }

    /** The replay's summary: every record of the trace topics, factors of every node. */
    private static void assertReplayed(String out, long events, int nodes) {
        Matcher m = Pattern.compile("replayed ([0-9,]+) records of 5 trace topics under application.id \\S+ in "
                + "[0-9.]+ s: factors of (\\d+) nodes \\(([0-9,]+) factor records\\)").matcher(out);
        assertTrue(m.find(), out);
        assertEquals(events, Long.parseLong(m.group(1).replace(",", "")), out);
        assertEquals(nodes, Integer.parseInt(m.group(2)), out);
    }

    private static void assertSameFactors(Map<String, SyncFactor> expected, Map<String, SyncFactor> got) {
        assertEquals(expected.keySet(), got.keySet());
        expected.forEach((node, f) -> {
            assertEquals(f.getReference(), got.get(node).getReference(), node);
            assertEquals(PublishedFactor.of(f).factor(), PublishedFactor.of(got.get(node)).factor(), node);
        });
    }

    private static List<SendReceive> pairs(Path run) throws Exception {
        List<SendReceive> pairs = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(run.resolve("pairs.csv"))) {
            PairsCsv.read(in, "pairs.csv", pairs::add);
        }
        return pairs;
    }

    private Settings settings(String id) {
        return Settings.of(SharedKafkaEnvironment.isolated(id))
                .with("state.dir", dir.resolve("state").toString())
                .with("commit.interval.ms", "200")
                .with("factors.min.change", "0")
                .with("links.min.change", "0")
                .with("session.timeout.ms", "6000"); // the broker's least: a closed instance leaves the group soon
    }

    /** {@code replay} with every setting that differs from the defaults as {@code -D}. */
    private static String[] replay(Settings settings, String... options) {
        List<String> args = new ArrayList<>(List.of("replay"));
        args.addAll(List.of(options));
        for (String key : List.of("bootstrap.servers", "schema.registry.url", "application.id", "state.dir",
                "commit.interval.ms", "factors.min.change", "links.min.change", "session.timeout.ms",
                "traces.topic.prefix", "traces.pattern", "factors.topic", "tree.topic", "links.topic", "dlq.topic")) {
            args.addAll(List.of("-D", key + "=" + settings.get(key)));
        }
        return args.toArray(new String[0]);
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Arrays.stream(a), Arrays.stream(b)).toArray(String[]::new);
    }
}
