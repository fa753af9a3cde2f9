package io.tracesync.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.files.PairsCsv;
import io.tracesync.sim.GroundTruth;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sync-pairs --at} on clocks under a 20-minute ±0.5 ppm cycle, against the simulated truth: at random past
 * times every node's interval from the pairs around the time holds the truth, as the live answer (the pairs up to
 * it) does; the answers are narrower than live and as near the truth.
 */
class LinksAroundTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void answersFromThePairsAroundATimeHoldTheTruthAndBeatLive() throws IOException {
        Path run = dir.resolve("run");
        assertEquals(0, TracesyncCommand.commandLine().execute("simulate", "--out", run.toString(),
                "--nodes", "6", "--duration", "12m", "--seed", "11", "--wander", "--wander-amplitude", "0.5",
                "--wander-period", "20m"));
        GroundTruth truth = GroundTruth.read(run);
        CanonicalPairs pairs = new CanonicalPairs();
        try (BufferedReader in = Files.newBufferedReader(run.resolve("pairs.csv"))) {
            PairsCsv.read(in, "pairs.csv", pairs::add);
        }
        LinkOptions options = LinkOptions.withModel(LinkOptions.DEFAULT_HORIZON.toNanos(), 0, 0, null,
                LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        Map<LinkKey, ConvexHullLink> links = pairs.links(options);
        String reference = SyncReport.build(links, NetworkOptions.DEFAULT).reference();
        NetworkOptions pinned = NetworkOptions.DEFAULT.withPinnedReference(reference);
        SplittableRandom random = new SplittableRandom(5);
        List<Double> widths = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        List<Double> finalWidths = new ArrayList<>();
        List<Double> finalErrors = new ArrayList<>();
        Map<LinkKey, LinkEstimate> finals = new TreeMap<>();
        links.forEach((key, link) -> finals.put(key, LinkEstimate.of(key, link)));
        long start = truth.clock(reference).trueStart();
        for (int i = 0; i < 12; i++) {
            long tau = start + random.nextLong(90 * SECOND, 660 * SECOND);
            long at = truth.clock(reference).localAt(tau);
            List<AnchoredFactor> around = SyncReport.at(pairs, links, options, pinned, List.of(at), false).factors();
            List<AnchoredFactor> live = SyncReport.at(pairs, links, options, pinned, List.of(at), true).factors();
            List<AnchoredFactor> late = SyncReport.build(links, finals, Map.of(), pinned, List.of(at)).factors();
            for (int k = 0; k < around.size(); k++) {
                AnchoredFactor a = around.get(k);
                AnchoredFactor l = live.get(k);
                assertEquals(a.node(), l.node());
                if (a.node().equals(reference)) {
                    continue;
                }
                long local = truth.clock(a.node()).localAt(tau);
                Conversion c = Conversion.of(a.factor(), local);
                Conversion d = Conversion.of(l.factor(), local);
                assertTrue(c.lowerNs() <= at && at <= c.upperNs(), a + " misses " + at + " at " + local);
                assertTrue(d.lowerNs() <= at && at <= d.upperNs(), l + " misses " + at + " at " + local);
                widths.add((double) (c.upperNs() - c.lowerNs()) / (d.upperNs() - d.lowerNs()));
                errors.add(error(c, at) / Math.max(1, error(d, at)));
                Conversion f = Conversion.of(late.get(k).factor(), local);
                finalWidths.add((double) (f.upperNs() - f.lowerNs()) / (d.upperNs() - d.lowerNs()));
                finalErrors.add(error(f, at) / Math.max(1, error(d, at)));
            }
        }
        double width = median(widths);
        double error = median(errors);
        double widest = Collections.max(widths);
        System.out.printf("around a past time vs live, %d answers: width ratio median %.3f, max %.3f; error ratio "
                + "median %.3f (the links' final windows: width %.1f, error %.1f)%n", widths.size(), width, widest,
                error, median(finalWidths), median(finalErrors));
        assertTrue(width < 0.99 && widest <= 1.001, "narrower than live: " + width + ", at most " + widest);
        assertTrue(error <= 1.05, "as near the truth as live: " + error);
    }

    private static double error(Conversion c, long truth) {
        return c.referenceNs().subtract(BigDecimal.valueOf(truth)).abs().doubleValue();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
