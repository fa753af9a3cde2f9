package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class SlackGateTest {

    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    /** A node's interval at its anchor (ps of the reference's clock) and its slope range, as absolute ends. */
    private record Answer(BigDecimal lower, BigDecimal upper, double slopeLow, double slopeHigh) {
    }

    private static Map<String, Answer> answers(NetworkSync net) {
        net.drain();
        Map<String, Answer> out = new HashMap<>();
        for (AnchoredFactor f : net.evaluate(null).factors()) {
            Factor g = f.factor();
            if (g.bounded() && !f.node().equals(f.reference())) {
                BigDecimal at = Conversion.of(g, g.anchorNs()).referenceNs().movePointRight(3);
                double s = g.toReference().slope().hi();
                out.put(f.node(), new Answer(at.subtract(BigDecimal.valueOf(g.downPs())),
                        at.add(BigDecimal.valueOf(g.upPs())), s - g.growthBelow(), s + g.growthAbove()));
            }
        }
        return out;
    }

    /**
     * Whether two answers differ by more than the roundings: with {@code ends}, 2 ps on the ends of an interval, else
     * 10^-14 on the slope ranges.
     */
    private static boolean moved(Map<String, Answer> a, Map<String, Answer> b, boolean ends) {
        if (!a.keySet().equals(b.keySet())) {
            return true;
        }
        for (String node : a.keySet()) {
            Answer x = a.get(node);
            Answer y = b.get(node);
            if (ends ? x.lower.subtract(y.lower).abs().compareTo(TWO) > 0
                    || x.upper.subtract(y.upper).abs().compareTo(TWO) > 0
                    : Math.abs(x.slopeLow - y.slopeLow) > 1e-14 || Math.abs(x.slopeHigh - y.slopeHigh) > 1e-14) {
                return true;
            }
        }
        return false;
    }

    /**
     * The link's estimate with one of its four constraints tightened by {@code by} (ps, or 10^-15 of log-slope), its
     * weight in the spanning forest kept (a new weight may reshape the forest, whose factors place the evaluation).
     */
    private static LinkEstimate tightened(LinkEstimate e, int side, double by) {
        long up = side == 0 ? e.upPs() - (long) by : e.upPs();
        long down = side == 1 ? e.downPs() - (long) by : e.downPs();
        double max = side == 2 ? Math.exp(Math.log(e.maxSlope()) - by / NetworkIntervals.LOG_UNIT) : e.maxSlope();
        double min = side == 3 ? Math.exp(Math.log(e.minSlope()) + by / NetworkIntervals.LOG_UNIT) : e.minSlope();
        return new LinkEstimate(e.key(), e.quality(), e.aToB(), e.slopeAccuracy(), min, max, e.latestNs(), up, down,
                e.curvature());
    }

    /**
     * Networks of linear clocks: a link's offset bound tightened by less than its slack moves no node's interval,
     * by more at least one; a slope limit likewise every node's slope range (a slope limit also bounds how its
     * link's offset bounds grow away from its latest time, which the offset slack covers where the gate looks: at
     * the new summary's latest time). So the slack is how far a link lies from every tightest path.
     */
    @Property(tries = 60)
    void tighteningALinkWithinItsSlackMovesNoAnswerAndBeyondItSome(@ForAll long seed,
            @ForAll @IntRange(min = 3, max = 10) int nodes, @ForAll @IntRange(min = 0, max = 14) int extraLinks) {
        Random r = new Random(seed);
        LinearNetwork w = new LinearNetwork(r, nodes, nodes - 1 + extraLinks, true, 100, 40, 20_000_000_000L,
                20_000 + r.nextInt(100_000));
        w.feedAll();
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        w.estimates().forEach(net::update);
        Map<String, Answer> before = answers(net);
        List<LinkKey> keys = new ArrayList<>(w.links.keySet());
        int checked = 0;
        for (int trial = 0; trial < 8; trial++) {
            LinkKey k = keys.get(r.nextInt(keys.size()));
            long[] slack = new long[4];
            LinkEstimate held = net.estimate(k, slack);
            if (held == null || !held.bounded() || slack[0] < 0) {
                continue;
            }
            int side = r.nextInt(4);
            double room = side == 0 ? held.upPs() : side == 1 ? held.downPs()
                    : Math.log(held.maxSlope() / held.minSlope()) * NetworkIntervals.LOG_UNIT / 2;
            double within = side < 2 ? slack[side] * 0.999 - 3 : slack[side] * 0.999 - 1e3;
            double beyond = side < 2 ? slack[side] * 1.001 + 6 : slack[side] * 1.01 + 1e5;
            if (within > 0 && within < room) {
                net.update(tightened(held, side, within));
                assertFalse(moved(before, answers(net), side < 2), k + " side " + side + " within its slack "
                        + slack[side]);
                net.update(held);
                checked++;
            }
            if (beyond < room) {
                net.update(tightened(held, side, beyond));
                assertTrue(moved(before, answers(net), side < 2), k + " side " + side + " beyond its slack "
                        + slack[side]);
                net.update(held);
                checked++;
            }
            assertFalse(moved(before, answers(net), true) || moved(before, answers(net), false),
                    "the held estimate back, the answers back");
        }
        Statistics.label("tightenings checked").collect(checked > 0);
    }

    /** A link of a node's only path has no slack: each of its summaries counts. */
    @Test
    void aBridgeHasNoSlackAndAParallelPathsLooserLinkHasSome() {
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        long t = 1_000_000_000_000L;
        LinkEstimate ab = link("a", "b", t, 50_000);
        LinkEstimate bc = link("b", "c", t, 50_000);
        LinkEstimate ac = link("a", "c", t, 400_000);
        List.of(ab, bc, ac).forEach(net::update);
        net.drain();
        net.evaluate(null);
        long[] slack = new long[4];
        assertEquals(ab, net.estimate(ab.key(), slack));
        assertTrue(slack[0] == 0 || slack[1] == 0, "a~b carries a bound of b or c");
        assertEquals(ac, net.estimate(ac.key(), slack));
        assertTrue(slack[0] > 250_000 && slack[1] > 250_000, "a~c: 400 µs against 100 µs through b");
        Restarts restarts = new Restarts();
        SlackGate gate = new SlackGate(0.1);
        assertFalse(gate.matters(net, restarts, link("a", "c", t + 1_000_000, 300_000), Long.MIN_VALUE),
                "a~c 100 µs tighter, still far from the path through b");
        assertTrue(gate.matters(net, restarts, link("a", "c", t + 1_000_000, 60_000), Long.MIN_VALUE),
                "a~c tighter than the path through b");
        assertTrue(gate.matters(net, restarts, link("a", "c", t + 1_000_000, 300_000), t), "a~c restarted");
        assertTrue(gate.matters(net, restarts, link("a", "d", t, 300_000), Long.MIN_VALUE), "a new link");
        // a share of 0.1 / 8 of its 800 µs: the estimate may move by 10 ns unheard
        assertFalse(gate.matters(net, restarts, shifted(ac, 8), Long.MIN_VALUE), "its estimate moved by 8 ns");
        assertTrue(gate.matters(net, restarts, shifted(ac, 12), Long.MIN_VALUE), "its estimate moved by 12 ns");
    }

    private static LinkEstimate shifted(LinkEstimate e, long ns) {
        return new LinkEstimate(e.key(), e.quality(), ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(ns)),
                e.slopeAccuracy(), e.minSlope(), e.maxSlope(), e.latestNs(), e.upPs(), e.downPs());
    }

    /** A link of clocks in step, ±{@code boundPs} at t, its slope known to ±0.1 ppm. */
    private static LinkEstimate link(String a, String b, long t, long boundPs) {
        return LinkEstimate.accurate(LinkKey.between(a, b), ClockMap.IDENTITY, 2e-7, 1 - 1e-7, 1 + 1e-7, t, boundPs,
                boundPs);
    }
}
