package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.Excursion;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Offset excursions over a network, exactly: clocks that each depart from a linear clock by at most φ (an
 * {@link Excursion} of their reading, slewed in and out fast) exchange messages over random links told of Φ =
 * 2.002φ; the network combines the links' curves, without their excursions, and widens every node's bounds by Φ
 * once (docs/LINK-CORE.md, "Offset excursions"). Every node's factor, from every link or along the tree, holds its
 * reference's true reading at its anchor and up to a minute on; the same bounds less Φ do not, on some clocks.
 */
class ExcursionIntervalsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long SPAN = 120 * SECOND;

    /** A clock whose reading t is at true time (t − offset)/(1 + drift) + e(t), |e| ≤ φ. Exact. */
    private record Clock(long offset, Rational rate, Excursion excursion) {

        static Clock random(SplittableRandom r, long phi) {
            long offset = r.nextLong(-(1L << 40), 1L << 40);
            Rational rate = Rational.of(1).add(Rational.of(r.nextLong(-100_000, 100_001), 1_000_000_000));
            return new Clock(offset, rate, Excursion.random(r, offset - SECOND, offset + 4 * SPAN, phi));
        }

        Rational trueAt(long t) {
            return Rational.of(t - offset).divide(rate).add(excursion.at(t));
        }

        /** The greatest reading whose true time is at most {@code at} (the reading rises with true time). */
        long floorAt(Rational at) {
            long guess = at.multiply(rate).numerator().divide(at.multiply(rate).denominator()).longValueExact()
                    + offset;
            long lo = guess - 10_000_000;
            long hi = guess + 10_000_000;
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (trueAt(mid).compareTo(at) <= 0) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The least reading whose true time is at least {@code at}. */
        long ceilAt(Rational at) {
            long f = floorAt(at);
            return trueAt(f).compareTo(at) == 0 ? f : f + 1;
        }
    }

    /** Clocks, links between them told of Φ, every link fed a message every few ms of true time. */
    private record Run(TreeMap<String, Clock> clocks, long excursionNs, List<AnchoredFactor> factors) {

        /** With {@code told} false the links are not told of the excursion. */
        static Run random(long seed, boolean told) {
            SplittableRandom r = new SplittableRandom(seed);
            long phi = r.nextLong(1_000, 50_001);
            long excursion = (phi * 2002 + 999) / 1000;
            int n = 3 + r.nextInt(5);
            List<String> names = new ArrayList<>();
            TreeMap<String, Clock> clocks = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                names.add("n" + i);
                clocks.put("n" + i, Clock.random(r, phi));
            }
            List<LinkKey> keys = RandomLinks.connecting(names, r);
            LinkOptions options = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(20, 30 * SECOND)
                    .withExcursion(told ? excursion : 0);
            TreeMap<LinkKey, ConvexHullLink> links = new TreeMap<>();
            keys.forEach(k -> links.put(k, new ConvexHullLink(options)));
            for (long t = SECOND; t < SPAN; t += r.nextLong(1, 20_000_000)) {
                LinkKey k = keys.get(r.nextInt(keys.size()));
                Clock a = clocks.get(k.a());
                Clock b = clocks.get(k.b());
                Rational send = Rational.of(t);
                Rational recv = send.add(Rational.of(r.nextLong(1, 300_000)));
                if (r.nextBoolean()) {
                    links.get(k).addAtoB(a.floorAt(send), b.ceilAt(recv));
                } else {
                    links.get(k).addBtoA(b.floorAt(send), a.ceilAt(recv));
                }
            }
            NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
            links.forEach((k, l) -> net.update(LinkEstimate.of(k, l)));
            net.drain();
            List<AnchoredFactor> factors = new ArrayList<>();
            for (NetworkMethod method : NetworkMethod.values()) {
                factors.addAll(net.evaluate(method, NetworkIntervals.Weighting.DEFAULT, null).factors());
            }
            return new Run(clocks, excursion, factors);
        }

        /**
         * How many of the factors' conversions, at their anchors and up to a minute on, miss the reference's true
         * reading with their bounds narrowed by {@code narrowerPs}; {@code checks} counts them all.
         */
        int misses(long narrowerPs, SplittableRandom r, int[] checks) {
            int missed = 0;
            for (AnchoredFactor f : factors) {
                if (!f.factor().bounded() || f.node().equals(f.reference())) {
                    continue;
                }
                long anchor = f.factor().anchorNs();
                for (long t : new long[] {anchor, anchor + r.nextLong(60 * SECOND)}) {
                    missed += miss(f, t, narrowerPs) ? 1 : 0;
                    checks[0]++;
                }
            }
            return missed;
        }

        /** How many of the factors' conversions at the true time {@code at} miss as {@link #misses} tells. */
        int missesAt(long narrowerPs, Rational at) {
            int missed = 0;
            for (AnchoredFactor f : factors) {
                if (f.factor().bounded() && !f.node().equals(f.reference())) {
                    missed += miss(f, clocks.get(f.node()).floorAt(at), narrowerPs) ? 1 : 0;
                }
            }
            return missed;
        }

        private boolean miss(AnchoredFactor f, long t, long narrowerPs) {
            Rational at = clocks.get(f.node()).trueAt(t);
            Clock ref = clocks.get(f.reference());
            long below = ref.floorAt(at); // the reference's true reading lies in [below, above]
            long above = ref.ceilAt(at);
            BigDecimal y = f.factor().toReference().slope().toBigDecimal().multiply(BigDecimal.valueOf(t))
                    .add(f.factor().toReference().offset().toBigDecimal());
            BigDecimal lower = y.subtract(BigDecimal.valueOf(f.factor().downAtPs(t) - narrowerPs, 3));
            BigDecimal upper = y.add(BigDecimal.valueOf(f.factor().upAtPs(t) - narrowerPs, 3));
            return lower.compareTo(BigDecimal.valueOf(above)) > 0 || upper.compareTo(BigDecimal.valueOf(below)) < 0;
        }
    }

    @Property(tries = 15)
    void everyNodesFactorHoldsItsReferencesTrueReading(@ForAll long seed) {
        Run run = Run.random(seed, true);
        int[] checks = new int[1];
        int missed = run.misses(0, new SplittableRandom(seed), checks);
        assertTrue(missed == 0, missed + " of " + checks[0] + " conversions miss the truth");
        assertTrue(checks[0] >= 2 * (run.clocks().size() - 1), checks[0] + " checks");
    }

    /**
     * Each factor counts the excursions its bounds hold: its own Φ and Φ per link of the fewest from its reference
     * (n0, the node with the most links); and on these clocks, which run near their smooth relations, its interval is
     * at least twice that wide.
     */
    @Test
    void eachFactorCountsTheExcursionsOfItsPath() {
        long excursion = 40_040;
        LinkOptions options = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(20, 30 * SECOND)
                .withExcursion(excursion);
        List<LinkKey> keys = List.of(LinkKey.between("n0", "n1"), LinkKey.between("n0", "n2"),
                LinkKey.between("n0", "n3"), LinkKey.between("n3", "n4"), LinkKey.between("n4", "n5"));
        SplittableRandom r = new SplittableRandom(5);
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        for (LinkKey k : keys) {
            ConvexHullLink link = new ConvexHullLink(options);
            for (long t = SECOND; t < 60 * SECOND; t += r.nextLong(1_000_000, 20_000_000)) {
                if (r.nextBoolean()) {
                    link.addAtoB(t, t + r.nextLong(20_000, 300_000));
                } else {
                    link.addBtoA(t, t + r.nextLong(20_000, 300_000));
                }
            }
            net.update(LinkEstimate.of(k, link));
        }
        net.drain();
        long phi = excursion * 1000; // ps
        Map<String, Long> expected = Map.of("n0", 0L, "n1", 2 * phi, "n2", 2 * phi, "n3", 2 * phi, "n4", 3 * phi,
                "n5", 4 * phi);
        for (NetworkMethod method : NetworkMethod.values()) {
            for (AnchoredFactor f : net.evaluate(method, NetworkIntervals.Weighting.DEFAULT, null).factors()) {
                assertEquals("n0", f.reference());
                assertEquals(expected.get(f.node()), f.excursionPs(), f.node() + " " + method);
                assertTrue(f.factor().upPs() + f.factor().downPs() >= 2 * f.excursionPs(), f.toString());
            }
        }
    }

    /**
     * Where the excursion does its worst: while the messages flow, n0 reads φ late and n1 φ early; 1 ms after the
     * last, both flip, and the relation moves by 4φ at once — beyond the curve's interval from the pairs moved by Φ,
     * within the node's bounds widened by Φ. The same bounds less Φ miss it.
     */
    @Test
    void aNodesOwnExcursionIsInsideItsBounds() {
        long phi = 20_000;
        long excursion = (phi * 2002 + 999) / 1000;
        long end = 60 * SECOND;
        Rational rate1 = Rational.of(1_000_010, 1_000_000);
        long shift1 = 5 * SECOND;
        Rational scaled = Rational.of(end).multiply(rate1);
        long end1 = scaled.numerator().divide(scaled.denominator()).longValueExact() + shift1;
        TreeMap<String, Clock> clocks = new TreeMap<>();
        clocks.put("n0", new Clock(0, Rational.of(1),
                Excursion.of(new long[] {end, end + 1_000_000}, new long[] {phi, -phi})));
        clocks.put("n1", new Clock(shift1, rate1,
                Excursion.of(new long[] {end1, end1 + 1_000_000}, new long[] {-phi, phi})));
        LinkKey key = LinkKey.between("n0", "n1");
        ConvexHullLink link = new ConvexHullLink(new LinkOptions(30 * 60 * SECOND, 0, 0)
                .withCurvature(20, 30 * SECOND).withExcursion(excursion));
        SplittableRandom r = new SplittableRandom(3);
        for (long t = SECOND; t < end - 2_000_000; t += r.nextLong(1_000_000, 5_000_000)) {
            Clock a = clocks.get(key.a());
            Clock b = clocks.get(key.b());
            Rational recv = Rational.of(t + r.nextLong(1, 3_000));
            if (r.nextBoolean()) {
                link.addAtoB(a.floorAt(Rational.of(t)), b.ceilAt(recv));
            } else {
                link.addBtoA(b.floorAt(Rational.of(t)), a.ceilAt(recv));
            }
        }
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        net.update(LinkEstimate.of(key, link));
        net.drain();
        List<AnchoredFactor> factors = new ArrayList<>();
        for (NetworkMethod method : NetworkMethod.values()) {
            factors.addAll(net.evaluate(method, NetworkIntervals.Weighting.DEFAULT, null).factors());
        }
        Run run = new Run(clocks, excursion, factors);
        Rational after = Rational.of(end + 3_000_000);
        assertTrue(run.missesAt(0, after) == 0, "the node's bounds miss the truth after the flip");
        assertTrue(run.missesAt(excursion * 1000, after) > 0, "the bounds less Φ hold it");
    }

    /** The control: links not told of the excursion give bounds that miss the truth on some clocks. */
    @Test
    void linksNotToldOfTheExcursionMissTheTruth() {
        int missed = 0;
        for (long seed = 0; seed < 10 && missed == 0; seed++) {
            missed += Run.random(seed, false).misses(0, new SplittableRandom(seed), new int[1]);
        }
        assertTrue(missed > 0, "bounds without Φ never missed");
    }
}
