package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.RateBoundedClock;
import io.tracesync.core.numeric.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The second guarantee over a network, exactly: clocks whose rates stay within ±R of true time, each changing as it
 * likes within that, exchange messages over random links; every node's interval from the links' datasheet
 * estimates ({@link LinkEstimate#datasheet}), combined as the model's are ({@link NetworkSync#evaluate}), holds its
 * reference's true reading at the anchor and up to a minute after it.
 */
class DatasheetIntervalsTest {

    private static final long SECOND = 1_000_000_000L;

    private static long floor(Rational q) {
        return q.numerator().subtract(q.numerator().mod(q.denominator())).divide(q.denominator()).longValueExact();
    }

    private static long ceil(Rational q) {
        return -floor(q.negate());
    }

    @Property(tries = 40)
    void everyNodesIntervalHoldsItsReferencesTrueReading(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double ppm = 10 + r.nextInt(500);
        int n = 3 + r.nextInt(5);
        long span = 120 * SECOND;
        List<String> names = new ArrayList<>();
        TreeMap<String, RateBoundedClock> clocks = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String name = "n" + i;
            names.add(name);
            clocks.put(name, RateBoundedClock.random(r, span + 120 * SECOND, ppm, r.nextLong(-(1L << 40), 1L << 40)));
        }
        List<LinkKey> keys = RandomLinks.connecting(names, r);
        LinkOptions options = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(1_000, 30 * SECOND)
                .withMaxDrift(ppm);
        TreeMap<LinkKey, ConvexHullLink> links = new TreeMap<>();
        keys.forEach(k -> links.put(k, new ConvexHullLink(options)));
        for (long t = SECOND; t < span; t += r.nextLong(1, SECOND / 4)) {
            LinkKey k = keys.get(r.nextInt(keys.size()));
            RateBoundedClock a = clocks.get(k.a());
            RateBoundedClock b = clocks.get(k.b());
            Rational send = Rational.of(t);
            Rational recv = send.add(Rational.of(r.nextLong(1, 300_000)));
            if (r.nextBoolean()) {
                links.get(k).addAtoB(floor(a.at(send)), ceil(b.at(recv)));
            } else {
                links.get(k).addBtoA(floor(b.at(send)), ceil(a.at(recv)));
            }
        }
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        links.forEach((k, l) -> net.update(LinkEstimate.datasheet(k, l)));
        net.drain();
        int checked = 0;
        for (AnchoredFactor f : net.evaluate(NetworkMethod.ALL_LINKS, NetworkIntervals.Weighting.DEFAULT, null)
                .factors()) {
            if (!f.factor().bounded()) {
                continue;
            }
            RateBoundedClock node = clocks.get(f.node());
            RateBoundedClock ref = clocks.get(f.reference());
            long anchor = f.factor().anchorNs();
            for (long t : new long[] {anchor, anchor + r.nextLong(60 * SECOND)}) {
                Rational truth = ref.at(node.trueAt(Rational.of(t)));
                Conversion c = Conversion.of(f.factor(), t);
                assertTrue(c.lowerNs() != null && Rational.of(c.lowerNs()).compareTo(truth) <= 0
                        && truth.compareTo(Rational.of(c.upperNs())) <= 0, () -> f.node() + " at " + t + ": "
                        + truth.toDecimalString() + " outside " + c);
                checked++;
            }
        }
        assertTrue(checked >= 2 * (n - 1), checked + " checks of " + n + " nodes");
    }
}
