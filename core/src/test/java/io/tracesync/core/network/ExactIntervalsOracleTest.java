package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The fast path of {@link NetworkIntervals} against {@link ExactIntervalsOracle}: on random networks — connected
 * or not, single links, pinned references, drifts up to 10 % (so that the slope ranges matter), and with one link
 * given a clock step (inconsistent) — every interval contains the exact one and exceeds it by at most the outward
 * rounding: 2 ps per link of a path and 1 ps for a shifted map, and far from the links' latest times the rounding
 * of the growth rates they are carried with.
 */
class ExactIntervalsOracleTest {

    @Property(tries = 200)
    void theFastPathEqualsTheExactSystemWithinItsOutwardRounding(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 9) int nodes, @ForAll @IntRange(min = 0, max = 12) int extraLinks) {
        Random r = new Random(seed);
        double ppm = r.nextBoolean() ? 100_000 : 100;
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, r.nextInt(4) > 0, ppm,
                2 + r.nextInt(60), 1_000_000_000L + r.nextInt(20) * 1_000_000_000L, 500 + r.nextInt(100_000));
        w.feedAll();
        boolean corrupt = r.nextInt(4) == 0 && !w.links.isEmpty();
        List<LinkEstimate> estimates = w.estimates();
        if (corrupt) {
            int i = r.nextInt(estimates.size());
            LinkEstimate e = estimates.get(i);
            if (e.aToB() != null) {
                // b's clock read 3 ms late on this link only: a step no other path shows
                estimates.set(i, new LinkEstimate(e.key(), e.quality(), e.aToB().andThen(
                        ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(3_000_000))),
                        e.slopeAccuracy(), e.minSlope(), e.maxSlope(), e.latestNs(), e.upPs(), e.downPs()));
            }
        }
        NetworkSync net = new NetworkSync(r.nextInt(3) == 0 && nodes > 0
                ? NetworkOptions.DEFAULT.withPinnedReference(w.names.get(r.nextInt(nodes))) : NetworkOptions.DEFAULT);
        w.names.forEach(net::addNode);
        estimates.forEach(net::update);
        net.drain();
        for (NetworkIntervals.Component c : net.components()) {
            Long at = r.nextBoolean() ? null
                    : NetworkIntervals.defaultTime(c) + (long) ((r.nextDouble() - 0.5) * 200e9);
            for (NetworkMethod method : NetworkMethod.values()) {
                NetworkIntervals.Result fast = NetworkIntervals.compute(c, method,
                        NetworkIntervals.Weighting.INVERSE_WIDTH, at);
                compare(c, method, fast);
            }
        }
    }

    /**
     * Samples random seeds found: 9.03 and 11.04 ps wider than the exact intervals, past the 9 and 11 ps of rounding
     * at the links' latest times — the bounds carried up to 100 s to the evaluation time grow at rates held as
     * doubles.
     */
    @Test
    void boundsCarriedFarFromTheLinksAgreeToTheGrowthRatesRounding() {
        theFastPathEqualsTheExactSystemWithinItsOutwardRounding(3785, 4, 8);
        theFastPathEqualsTheExactSystemWithinItsOutwardRounding(1268, 5, 9);
    }

    private static void compare(NetworkIntervals.Component c, NetworkMethod method, NetworkIntervals.Result fast) {
        int n = c.names().length;
        int m = c.links().length;
        long[] x = new long[n];
        for (int v = 0; v < n; v++) {
            x[v] = fast.factors()[v].factor().anchorNs();
        }
        assertEquals(fast.evaluatedAtNs(), x[0]);
        boolean[] all = new boolean[m];
        boolean[] kept = new boolean[m];
        for (int l = 0; l < m; l++) {
            all[l] = !c.links()[l].bounded();
            kept[l] = all[l] || fast.excluded().contains(c.links()[l].key())
                    || (method == NetworkMethod.TREE && !c.inTree()[l]);
        }
        if (method == NetworkMethod.ALL_LINKS) {
            ExactIntervalsOracle.Answer everything = ExactIntervalsOracle.solve(c, x, all);
            if (!fast.excluded().isEmpty()) {
                assertFalse(everything.consistent(), "links excluded from a consistent system: " + fast.excluded());
            } else {
                assertTrue(everything.consistent(), "an inconsistent system with nothing excluded");
            }
        } else {
            assertEquals(List.of(), fast.excluded(), "the tree method judges no link");
        }
        ExactIntervalsOracle.Answer exact = ExactIntervalsOracle.solve(c, x, kept);
        // outward rounding: 2 ps per link of a path, 1 ps for a shifted map; and a link's bounds carried from its
        // latest time to the evaluation's grow at rates held as doubles, 2^-50 per ps carried, at most n per path
        double carriedPs = 0;
        for (int l = 0; l < m; l++) {
            carriedPs = Math.max(carriedPs, Math.abs((double) x[c.linkA()[l]] - c.links()[l].latestNs()) * 1000);
        }
        Rational tolerance = Rational.of(2L * n + 1 + (long) Math.ceil(n * carriedPs * 0x1p-50));
        assertTrue(exact.consistent(), "still inconsistent after excluding " + fast.excluded());
        for (int v = 1; v < n; v++) {
            AnchoredFactor f = fast.factors()[v];
            Rational tv = ExactIntervalsOracle.apply(c.treeMaps()[v], x[v]).multiply(Rational.of(1000));
            Rational mv = ExactIntervalsOracle.apply(f.factor().toReference(), x[v]).multiply(Rational.of(1000));
            if (exact.up()[v] == null) {
                assertFalse(f.factor().bounded(), f + " bounded where no path is");
                continue;
            }
            assertTrue(f.factor().bounded(), f::toString);
            // fast interval [mv − down, mv + up] ⊇ exact [tv − downE, tv + upE], by at most the tolerance
            Rational upperGap = mv.add(Rational.of(f.factor().upPs())).subtract(tv.add(exact.up()[v]));
            Rational lowerGap = tv.subtract(exact.down()[v]).subtract(mv.subtract(Rational.of(f.factor().downPs())));
            for (Rational gap : List.of(upperGap, lowerGap)) {
                assertTrue(gap.signum() >= 0,
                        f + ": does not contain the exact interval, gap " + gap.toDecimalString());
                assertTrue(gap.compareTo(tolerance) <= 0,
                        f + ": " + gap.toDecimalString() + " ps wider than the exact interval");
            }
        }
    }
}
