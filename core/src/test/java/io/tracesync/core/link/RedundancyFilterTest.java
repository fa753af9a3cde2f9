package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The redundancy filter changes nothing: a link that lets it pass pairs and one that takes every pair the exact way
 * in every epoch give the same effect for every pair and the same state, byte for byte — under the clock model and
 * without it, with pairs close to the clock line (where the filter's tolerance matters), late pairs, and relations
 * that bend beyond the model (so that windows restart and the filter is cleared), with known minimum delays (the
 * straight window too) — and the filter does pass most
 * pairs of an ordinary stream.
 */
class RedundancyFilterTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;

    @Property(tries = 40)
    void theFilterChangesNothing(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int model) {
        SplittableRandom r = new SplittableRandom(seed);
        long ppb = r.nextLong(1, 101);
        LinkOptions options = switch (model) {
            case 0 -> new LinkOptions(4 * MINUTE, 0, 0).withCurvature(ppb, 15 * SECOND);
            case 1 -> new LinkOptions(2 * MINUTE, 0, 0);
            case 2 -> new LinkOptions(4 * MINUTE, 1, 1).withCurvature(ppb, 15 * SECOND); // with the straight window
            default -> LinkOptions.NO_HORIZON;
        };
        // bending up to 4× the model: some links contradict it and restart
        long bend = r.nextInt(3) == 0 ? 4 * ppb : ppb;
        long duration = 20 * MINUTE;
        CurvedClock g = CurvedClock.random(r, 0, duration, Rational.of(bend, 1_000_000_000_000_000_000L));
        ConvexHullLink filtered = new ConvexHullLink(options);
        ConvexHullLink exact = new ConvexHullLink(options, false);
        long step = r.nextLong(1_000_000, 50_000_000);
        long n = 0;
        for (long x = 0; x < duration; x += r.nextLong(1, 2 * step), n++) {
            long at = r.nextInt(8) == 0 ? Math.max(0, x - r.nextLong(3 * SECOND)) : x;
            long delay = switch (r.nextInt(4)) {
                case 0 -> r.nextLong(8);
                case 1 -> r.nextLong(2_000);
                default -> 50_000 + r.nextLong(400_000);
            };
            long truth = g.floorAt(at);
            boolean aToB = r.nextBoolean();
            PairEffect a = aToB ? filtered.addAtoB(at, truth + 1 + delay) : filtered.addBtoA(truth - delay, at);
            PairEffect b = aToB ? exact.addAtoB(at, truth + 1 + delay) : exact.addBtoA(truth - delay, at);
            long pair = n;
            assertEquals(b, a, () -> "pair " + pair + " at " + at);
            if (n % 97 == 0) {
                assertArrayEquals(LinkStateCodec.encode(exact), LinkStateCodec.encode(filtered), "state at " + at);
                assertEquals(exact.boundsAtLatest(), filtered.boundsAtLatest());
                assertEquals(exact.windowNs(), filtered.windowNs());
            }
        }
        assertArrayEquals(LinkStateCodec.encode(exact), LinkStateCodec.encode(filtered));
        assertEquals(exact.stored(), filtered.stored());
        assertEquals(exact.failures(), filtered.failures());
        assertEquals(0, exact.filtered());
        boolean failedForGood = !options.hasHorizon() && exact.failures() > 0;
        assertTrue(failedForGood || filtered.filtered() > 0, "model " + model + ": the filter passed none of " + n + " pairs");
    }

    /** 500 messages a second each way on linear clocks, delays of 50 µs + exponential(200 µs): few can narrow. */
    @Property(tries = 4)
    void theFilterPassesMostPairsOfAnOrdinaryStream(@ForAll @IntRange(min = 0, max = 1) int model) {
        LinkOptions options = model == 0 ? LinkOptions.DEFAULT : LinkOptions.DEFAULT.withCurvature(
                LinkOptions.DEFAULT_CURVATURE_PPB_PER_S, LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        ConvexHullLink link = new ConvexHullLink(options);
        SplittableRandom r = new SplittableRandom(model);
        int n = 300_000;
        for (int i = 0; i < n; i++) {
            long t = i * 1_000_000L;
            long delay = 50_000 + (long) (-200_000 * Math.log(1 - r.nextDouble()));
            if (i % 2 == 0) {
                link.addAtoB(t, 3_600_000_000_000L + Math.round((t + delay) * (1 + 37e-6)));
            } else {
                link.addBtoA(3_600_000_000_000L + Math.round(t * (1 + 37e-6)), t + delay);
            }
        }
        assertTrue(link.filtered() > 0.9 * n, "model " + model + ": the filter passed " + link.filtered() + " of " + n + " pairs");
    }
}
