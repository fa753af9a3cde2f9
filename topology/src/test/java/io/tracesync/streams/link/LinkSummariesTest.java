package io.tracesync.streams.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.LinkSummary;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.network.LinkEstimate;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** A link's summary carries its datasheet bound around the estimate, to the picosecond, where R is set. */
class LinkSummariesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final LinkKey KEY = new LinkKey("a", "b");

    /** b = a + 1 ms + 10 ppm, messages each way every 0.1 s with 20–60 µs of delay. */
    private static ConvexHullLink fed(LinkOptions options) {
        ConvexHullLink link = new ConvexHullLink(options);
        for (long x = 0; x < 60 * SECOND; x += SECOND / 10) {
            long delay = 20_000 + (x / (SECOND / 10)) % 5 * 10_000;
            link.addAtoB(x, b(x + delay) + 1);
            link.addBtoA(b(x), x + delay);
        }
        return link;
    }

    private static long b(long a) {
        return a + 1_000_000 + a / 100_000;
    }

    @Test
    void theDatasheetBoundIsTheLinksIntervalAroundTheEstimate() {
        LinkOptions model = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(20, 30 * SECOND);
        ConvexHullLink link = fed(model.withMaxDrift(100));
        LinkEstimate e = LinkEstimate.of(KEY, link);
        LinkSummary s = LinkSummaries.of(KEY, link, e);
        long t = link.latestX();
        BigDecimal at = e.aToB().apply(t).toBigDecimal();
        BigDecimal up = link.datasheet().upperAt(t).subtract(at).movePointRight(3);
        BigDecimal down = at.subtract(link.datasheet().lowerAt(t)).movePointRight(3);
        assertTrue(BigDecimal.valueOf(s.getDatasheetUpPs()).subtract(up).compareTo(BigDecimal.ONE) < 0
                && BigDecimal.valueOf(s.getDatasheetUpPs()).compareTo(up) >= 0, s.getDatasheetUpPs() + " vs " + up);
        assertTrue(BigDecimal.valueOf(s.getDatasheetDownPs()).subtract(down).compareTo(BigDecimal.ONE) < 0
                && BigDecimal.valueOf(s.getDatasheetDownPs()).compareTo(down) >= 0);
        // the truth b(t) lies inside
        BigDecimal truth = BigDecimal.valueOf(b(t)).subtract(at).movePointRight(3);
        assertTrue(truth.compareTo(BigDecimal.valueOf(s.getDatasheetUpPs())) <= 0
                && truth.negate().compareTo(BigDecimal.valueOf(s.getDatasheetDownPs())) <= 0);
        assertEquals(e.upPs(), (long) s.getUpPs());
        ConvexHullLink without = fed(model);
        LinkSummary none = LinkSummaries.of(KEY, without, LinkEstimate.of(KEY, without));
        assertNull(none.getDatasheetUpPs());
        assertNull(none.getDatasheetDownPs());
    }

    /**
     * The network's view of a summary under the datasheet alone is the link's own to a few ps (each side rounded
     * outward once more), its slopes R's, and holds the truth an hour on.
     */
    @Test
    void theNetworkReadsTheDatasheetBoundBackFromTheSummary() {
        LinkOptions model = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(20, 30 * SECOND);
        ConvexHullLink link = fed(model.withMaxDrift(100));
        LinkSummary s = LinkSummaries.of(KEY, link, LinkEstimate.of(KEY, link));
        LinkEstimate read = LinkSummaries.datasheetEstimate(s, 100);
        LinkEstimate own = LinkEstimate.datasheet(KEY, link);
        long t = link.latestX();
        BigDecimal readAt = read.aToB().apply(t).toBigDecimal();
        BigDecimal ownAt = own.aToB().apply(t).toBigDecimal();
        BigDecimal readHi = readAt.add(BigDecimal.valueOf(read.upPs(), 3));
        BigDecimal ownHi = ownAt.add(BigDecimal.valueOf(own.upPs(), 3));
        BigDecimal readLo = readAt.subtract(BigDecimal.valueOf(read.downPs(), 3));
        BigDecimal ownLo = ownAt.subtract(BigDecimal.valueOf(own.downPs(), 3));
        BigDecimal slack = new BigDecimal("0.004");
        assertTrue(readHi.compareTo(ownHi) >= 0 && readHi.subtract(ownHi).compareTo(slack) <= 0, readHi + " " + ownHi);
        assertTrue(readLo.compareTo(ownLo) <= 0 && ownLo.subtract(readLo).compareTo(slack) <= 0, readLo + " " + ownLo);
        assertEquals(own.minSlope(), read.minSlope());
        assertEquals(own.maxSlope(), read.maxSlope());
        long hour = t + 3600 * SECOND;
        BigDecimal truth = BigDecimal.valueOf(b(hour));
        BigDecimal at = read.aToB().apply(hour).toBigDecimal();
        assertTrue(truth.compareTo(at.add(BigDecimal.valueOf(read.upAtPs(hour), 3))) <= 0
                && truth.compareTo(at.subtract(BigDecimal.valueOf(read.downAtPs(hour), 3))) >= 0);
        LinkSummary none = LinkSummaries.of(KEY, fed(model), LinkEstimate.of(KEY, fed(model)));
        assertEquals(LinkQuality.INCOMPLETE, LinkSummaries.datasheetEstimate(none, 100).quality());
    }

    /** A summary carries the link's excursion, and the network's view of it is the link's own, Φ and all. */
    @Test
    void theNetworkReadsTheExcursionBackFromTheSummary() {
        LinkOptions model = new LinkOptions(30 * 60 * SECOND, 0, 0).withCurvature(20, 30 * SECOND);
        ConvexHullLink link = fed(model.withExcursion(20_000));
        LinkEstimate own = LinkEstimate.of(KEY, link);
        LinkSummary s = LinkSummaries.of(KEY, link, own);
        assertEquals(20_000_000L, s.getExcursionPs());
        assertEquals(own, LinkSummaries.estimate(s));
        assertEquals(0L, LinkSummaries.of(KEY, fed(model), LinkEstimate.of(KEY, fed(model))).getExcursionPs());
    }
}
