package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.sim.GroundTruth;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Simulate 5 nodes with linear clocks for a minute, replay, and check the guarantees against the truth. */
class EvaluationEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void linearClocksStayInsideTheBoundsAndBeatTheMidpointHeuristic() throws IOException {
        Path run = dir.resolve("run");
        assertEquals(0, new CommandLine(new TracesyncCommand()).execute("simulate", "--out", run.toString(),
                "--nodes", "5", "--duration", "1m", "--seed", "7"));
        TrueClocks truth = TrueClocks.of(GroundTruth.read(run));
        Path pairs = run.resolve("truth-pairs.csv");
        Replay.Result replay;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            replay = Replay.run(in, pairs.toString(), LinkOptions.DEFAULT, NetworkOptions.DEFAULT, 1_000_000_000L);
        }
        try (var out = Files.newBufferedWriter(dir.resolve("factors.csv"))) {
            replay.writeFactors(out);
        }

        ErrorStats errors = Metrics.factorErrors(replay, truth);
        Map<LinkKey, LinkChecks> checks;
        MidpointBaseline.Comparison baseline;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            checks = Metrics.linkChecks(in, pairs.toString(), replay, truth);
        }
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            baseline = MidpointBaseline.run(in, pairs.toString(), replay, truth);
        }
        System.out.println("factors: " + errors + "\nmidpoint: " + baseline.midpoint() + "\ntracesync on the "
                + "same exchanges: " + baseline.tracesync() + "\nlinks: " + checks + "\ntimings: " + replay.links());

        assertTrue(errors.bounded() > 100, "bounded factors: " + errors);
        assertEquals(errors.bounded(), errors.inside(), "every bounded true error inside its bounds: " + errors);
        assertTrue(baseline.tracesync().count() > 100 && baseline.midpoint().count() > 100);
        assertTrue(errors.medianNs() < baseline.midpoint().medianNs(), errors + " vs " + baseline.midpoint());
        assertTrue(baseline.tracesync().medianNs() < baseline.midpoint().medianNs());
        checks.values().forEach(c -> assertEquals(0, c.inversions(), "inversions " + checks));
    }
}
