package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.sim.GroundTruth;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six nodes whose clocks jump every 2 minutes or so, for 8 minutes: around every jump, answers after the fact miss
 * the truth at far fewer times than live ones, because the versions after a restart of the links answer for the
 * times after it instead of the version in force carrying the jump.
 */
class JumpWindowsTest {

    @TempDir
    Path dir;

    @Test
    void afterTheFactTimesAfterAJumpMissTheTruthFarLessThanLive() throws Exception {
        Path run = dir.resolve("run");
        assertEquals(0, TracesyncCommand.commandLine().execute("simulate", "--out", run.toString(),
                "--nodes", "6", "--duration", "8m", "--seed", "3", "--jumps-every", "2m"));
        GroundTruth truth = GroundTruth.read(run);
        assertTrue(truth.jumps().size() >= 10, "jumps: " + truth.jumps().size());
        Path pairs = run.resolve("truth-pairs.csv");
        LinkOptions options = LinkOptions.withModel(LinkOptions.DEFAULT_HORIZON.toNanos(), 0, 0, null,
                LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        Replay.Result replay;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            replay = Replay.run(in, pairs.toString(), options, NetworkOptions.DEFAULT, 1_000_000_000L);
        }
        JumpWindows w = JumpWindows.of(replay, TrueClocks.of(truth),
                Departures.of(truth.jumps().stream().map(Departures.Departure::of).toList(), replay.links()),
                new HistoryGate(10_000_000_000L));
        System.out.println(w.finding());
        assertTrue(w.samples() > 5_000, w.finding());
        assertTrue(w.liveOutside() > 0 && w.liveAfter() > 0, "live carries the jumps past their detection: "
                + w.finding());
        assertTrue(w.lateOutside() * 2 < w.liveOutside(), w.finding());
    }
}
