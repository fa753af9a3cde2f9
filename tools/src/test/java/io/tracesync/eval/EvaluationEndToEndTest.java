package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.sim.GroundTruth;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Simulate 5 nodes with linear clocks for a minute, replay, and check the guarantees against the truth. */
class EvaluationEndToEndTest {

    /** A history that keeps every row. */
    private static final HistoryGate KEEP_ALL = new HistoryGate(0);

    @TempDir
    static Path dir;
    private static Path pairs;
    private static TrueClocks truth;
    private static Replay.Result replay;

    @BeforeAll
    static void simulateAndReplay() throws IOException {
        Path run = dir.resolve("run");
        assertEquals(0, TracesyncCommand.commandLine().execute("simulate", "--out", run.toString(),
                "--nodes", "5", "--duration", "1m", "--seed", "7"));
        truth = TrueClocks.of(GroundTruth.read(run));
        pairs = run.resolve("truth-pairs.csv");
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            replay = Replay.run(in, pairs.toString(), LinkOptions.DEFAULT, NetworkOptions.DEFAULT, 1_000_000_000L);
        }
    }

    @Test
    void linearClocksStayInsideTheBoundsAndBeatTheMidpointHeuristic() throws IOException {
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

    /**
     * With nothing drained after τ, the history answers for τ exactly as the factor in force (but for a reading
     * before that factor's anchor).
     */
    @Test
    void atAge0TheHistoryAnswersAsTheFactorInForce() {
        HistorySweep sweep = new HistorySweep(replay.factors(), new Age(Duration.ZERO), Integer.MAX_VALUE, KEEP_ALL);
        long[] samples = {0};
        Metrics.forEachError(replay, truth, (row, t, e) -> {
            long local = truth.localAt(row.node(), t);
            HistoricConversion c = sweep.convert(row.node(), t, local);
            Conversion live = Conversion.of(row.factor(), local);
            samples[0]++;
            if (local < row.factor().anchorNs()) {
                // anchored at the newest link time, placed on the node's clock after its reading: the version
                // before and this one interpolated, or across a change of reference the nearer alone
                assertSame(row.factor(), (c.next() == null ? c.version() : c.next()).factor());
                return;
            }
            assertEquals(HistoricConversion.Basis.EXTRAPOLATED, c.basis());
            assertSame(row.factor(), c.version().factor(), "the factor in force");
            assertEquals(live.referenceNs(), c.referenceNs());
            assertEquals(live.lowerNs(), c.lowerNs());
            assertEquals(live.upperNs(), c.upperNs());
        });
        ErrorStats live = Metrics.factorErrors(replay, truth);
        assertEquals(live.count(), samples[0]);
        ErrorStats atZero = Metrics.afterTheFact(replay, truth, List.of(new Age(Duration.ZERO)), KEEP_ALL).get(0)
                .errors();
        assertEquals(live.count(), atZero.count());
        assertEquals(live.bounded(), atZero.bounded());
        assertEquals(live.inside(), atZero.inside());
        assertEquals(live.medianNs(), atZero.medianNs(), 1e-6);
        assertEquals(live.p99Ns(), atZero.p99Ns(), 1e-6);
        assertEquals(live.maxNs(), atZero.maxNs(), 1e-6);
        // the live width is up + down to the ps, the history's its interval rounded outward to whole ns
        assertTrue(atZero.medianWidthNs() >= live.medianWidthNs() && atZero.medianWidthNs() <= live.medianWidthNs()
                + 2, atZero.medianWidthNs() + " vs " + live.medianWidthNs());
    }

    /**
     * Later, every true error lies inside the history's answer, which is no wider than the live one where the
     * history keeps every factor, and within 5 % of it where it keeps one every 10 s of local time, as the
     * application's does by default.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 10_000_000_000L})
    void laterTheHistoryHoldsTheTruthInANarrowerInterval(long spacingNs) {
        ErrorStats live = Metrics.factorErrors(replay, truth);
        List<AgeErrors> late = Metrics.afterTheFact(replay, truth, List.of(new Age(Duration.ofSeconds(10)),
                new Age(Duration.ofSeconds(30)), Age.END), new HistoryGate(spacingNs));
        for (AgeErrors a : late) {
            ErrorStats s = a.errors();
            assertEquals(live.count(), s.count(), a.age().label());
            assertTrue(s.bounded() >= live.bounded(), a.age().label() + ": bounded wherever live is");
            assertEquals(s.bounded(), s.inside(), a.age().label() + ": every true error inside: " + s);
            assertTrue(s.medianWidthNs() <= live.medianWidthNs() * (spacingNs == 0 ? 1 : 1.05), a.age().label()
                    + ": median width "
                    + s.medianWidthNs() + " vs live " + live.medianWidthNs());
            assertTrue(a.interpolatedPercent() > 50, a.age().label() + ": " + a.interpolatedPercent() + " %");
            assertEquals(a.newest().bounded(), a.newest().inside(), "the newest factor's bounds hold too");
        }
        AgeErrors end = late.get(late.size() - 1);
        assertTrue(end.errors().medianWidthNs() < end.newest().medianWidthNs(), "the newest factor alone, carried "
                + "back, is wider: " + end.newest().medianWidthNs());
    }

    /**
     * Under the datasheet alone (R = 200 ppm), the bounds known after the fact, intersected around each time, hold
     * every true error: as narrow as live (to the ns of rounding) where the history keeps every bound, wider where
     * it keeps one every 10 s (the datasheet draws no chord between them), and narrower than the newest alone.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 10_000_000_000L})
    void underTheDatasheetTheBoundsKnownLaterHoldTheTruth(long spacingNs) throws IOException {
        Replay.Result sheet;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            sheet = Replay.run(in, pairs.toString(), LinkOptions.DEFAULT.withMaxDrift(200),
                    List.of(new DatasheetPolicy(NetworkOptions.DEFAULT)), 1_000_000_000L).get(0);
        }
        ErrorStats live = Metrics.factorErrors(sheet, truth);
        assertEquals(live.bounded(), live.inside(), "live: " + live);
        List<AgeErrors> late = Metrics.afterTheFactUnderDatasheet(sheet, truth, List.of(new Age(Duration.ZERO),
                new Age(Duration.ofSeconds(10)), Age.END), new HistoryGate(spacingNs, 0));
        for (AgeErrors a : late) {
            ErrorStats s = a.errors();
            assertEquals(live.count(), s.count(), a.age().label());
            assertTrue(s.bounded() >= live.bounded() && live.bounded() > 100, a.age().label() + ": " + s);
            assertEquals(s.bounded(), s.inside(), a.age().label() + ": every true error inside: " + s);
            assertEquals(a.newest().bounded(), a.newest().inside(), "the newest bound's hold too");
            if (spacingNs == 0) {
                assertTrue(s.medianWidthNs() <= live.medianWidthNs() + 2, a.age().label() + ": median width "
                        + s.medianWidthNs() + " vs live " + live.medianWidthNs());
            }
        }
        AgeErrors end = late.get(late.size() - 1);
        assertTrue(end.errors().medianWidthNs() < end.newest().medianWidthNs(), "the newest bound alone, carried "
                + "back, is wider: " + end.newest().medianWidthNs());
        if (spacingNs > 0) {
            assertTrue(end.errors().medianWidthNs() > 2 * live.medianWidthNs(), "one bound every 10 s, carried up "
                    + "to 5 s at 2R: " + end.errors().medianWidthNs() + " vs live " + live.medianWidthNs());
        }
    }

    /**
     * Replayed through the factor gate as the network task publishes ({@code factors.min.change} 0.1), each drain's
     * row of a node is a factor evaluated at that drain or held from an earlier one, fewer are published than
     * evaluated, and the held factors, carried to the sample's time, still hold the truth.
     */
    @Test
    void factorsHeldAsTheNetworkTaskPublishesStillHoldTheTruth() throws IOException {
        NetworkPolicy every = new NetworkPolicy(NetworkOptions.DEFAULT);
        NetworkPolicy gated = new NetworkPolicy(NetworkOptions.DEFAULT, NetworkIntervals.Weighting.DEFAULT,
                new SharedGate(0), 0.1);
        List<Replay.Result> both;
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            both = Replay.run(in, pairs.toString(), LinkOptions.DEFAULT, List.of(every, gated), 1_000_000_000L);
        }
        Map<String, List<FactorRow>> evaluated = new java.util.HashMap<>();
        both.get(0).factors().forEach(r -> evaluated.computeIfAbsent(r.node(), n -> new java.util.ArrayList<>())
                .add(r));
        int held = 0;
        for (FactorRow r : both.get(1).factors()) {
            FactorRow source = evaluated.get(r.node()).stream()
                    .filter(e -> e.trueNs() <= r.trueNs() && e.factor().equals(r.factor())).findFirst()
                    .orElseThrow(() -> new AssertionError("never evaluated: " + r));
            held += source.trueNs() < r.trueNs() ? 1 : 0;
        }
        assertEquals(both.get(0).factors().size(), both.get(1).factors().size(), "a row per node and drain");
        assertTrue(held > 0 && gated.publications() < gated.evaluations(), "the gate held none: " + held);
        assertEquals(every.evaluations(), every.publications(), "without a minimum change every factor goes");
        ErrorStats errors = Metrics.factorErrors(both.get(1), truth);
        assertTrue(errors.bounded() > 100, "bounded factors: " + errors);
        assertEquals(errors.bounded(), errors.inside(), "every held factor's true error inside its bounds: " + errors);
    }
}
