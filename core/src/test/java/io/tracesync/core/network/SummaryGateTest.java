package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A summary the gate holds back never makes a published bound wrong: after every pair, the estimate last let through,
 * carried to the link's latest time by its slope range and the clock model ({@link LinkEstimate#upAtPs}), still
 * holds the true relation — on straight and on bending clocks (up to the model's ρ′), at any threshold —, and is at
 * most 1 + the threshold times as wide there as the link's own bounds.
 */
class SummaryGateTest {

    private static final long SECOND = 1_000_000_000L;

    @Property(tries = 40)
    void theSummaryLastLetThroughStillHoldsTheTruth(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        boolean bending = r.nextBoolean();
        double kappa = bending ? r.nextDouble() * 20e-18 * (r.nextBoolean() ? 1 : -1) : 0; // per ns, within ρ′
        double drift = (r.nextDouble() - 0.5) * 2e-4;
        LinkOptions options = new LinkOptions(4 * 60 * SECOND, 0, 0);
        options = bending ? options.withCurvature(20, 15 * SECOND) : options;
        double minChange = new double[] {0, 0.01, 0.05, 0.25, 1}[r.nextInt(5)];
        SummaryGate gate = new SummaryGate(minChange);
        LinkKey key = new LinkKey("a", "b");
        ConvexHullLink link = new ConvexHullLink(options);
        long checked = 0;
        long held = 0;
        for (long t = 0; t < 10 * 60 * SECOND; t += r.nextLong(1, 400_000_000)) {
            double g = t + t * drift + kappa * t * (double) t / 2 + 1_000;
            long delay = r.nextBoolean() ? r.nextLong(1, 5) : r.nextLong(1, 200_000);
            if (r.nextBoolean()) {
                link.addAtoB(t, (long) Math.ceil(g) + delay);
            } else {
                link.addBtoA((long) Math.floor(g) - delay, t);
            }
            held += gate.offer(key, link) == null ? 1 : 0;
            LinkEstimate e = gate.emitted(key);
            if (e == null || !e.bounded()) {
                continue;
            }
            long x = link.latestX();
            double truth = x + x * drift + kappa * x * (double) x / 2 + 1_000;
            double aboveNs = DoubleDouble.of(truth).subtract(e.aToB().apply(x)).hi();
            assertTrue(aboveNs * 1000 <= e.upAtPs(x) + 1 && -aboveNs * 1000 <= e.downAtPs(x) + 1,
                    () -> "the truth lies " + aboveNs + " ns above a summary held since " + e.latestNs() + ", at "
                            + x + ": up " + e.upAtPs(x) + " ps, down " + e.downAtPs(x) + " ps");
            LinkEstimate fresh = LinkEstimate.of(key, link);
            if (minChange > 0 && fresh.bounded() && fresh.quality() == e.quality()) {
                double width = (double) fresh.upPs() + fresh.downPs();
                double carried = (double) e.upAtPs(x) + e.downAtPs(x);
                assertTrue(carried <= (1 + minChange) * width, () -> "the summary held since " + e.latestNs()
                        + " is " + carried + " ps wide at " + x + ", the link's own bounds " + width + " ps");
            }
            checked++;
        }
        assertTrue(checked > 1_000, "checked " + checked);
        assertTrue(minChange == 0 || held > 0, "nothing held back at " + minChange);
    }
}
