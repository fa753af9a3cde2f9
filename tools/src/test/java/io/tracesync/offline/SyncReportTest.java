package io.tracesync.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NetworkOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyncReportTest {

    /** b = a + 2.5 ms + 50 ppm, one message a second either way, one-way delays of 40 to 52 µs. */
    private static final String PAIRS = """
            a,1000000000,b,1002541002
            b,2002550000,a,2000047500
            a,3000000000,b,3002640202
            b,4002650000,a,4000052000
            a,5000000000,b,5002743302
            b,6002750000,a,6000040900
            a,7000000000,b,7002844102
            b,8002850000,a,8000040050
            """;

    private static SyncReport report(List<Long> at) {
        CanonicalPairs pairs = new CanonicalPairs();
        PAIRS.lines().map(l -> l.split(",")).forEach(f -> pairs.add(
                new SendReceive(f[0], Long.parseLong(f[1]), f[2], Long.parseLong(f[3]))));
        return at.isEmpty() ? SyncReport.build(pairs.links(LinkOptions.DEFAULT), NetworkOptions.DEFAULT)
                : SyncReport.at(pairs, pairs.links(LinkOptions.DEFAULT), LinkOptions.DEFAULT, NetworkOptions.DEFAULT,
                        at, false);
    }

    @Test
    void textShowsDriftInPpmAndOffsetsAndBoundsInUnitsThatFit() {
        assertEquals("""
                8 pairs, 1 link

                links (bounds at each link's latest pair, on a's clock):
                link (a~b)  quality   pairs  hull   drift b/a (ppm)      bound     at (ns)
                a~b         ACCURATE      8     6  +53.371 ± 14.951  ±51.24 µs  8000040050

                drift b/a: slope - 1 of b's clock against a's ± half its range; bound: Poirier's, around the estimate
                quality: ACCURATE  pairs both ways, both slope bounds known: the link is bounded
                         APPROXIMATE  pairs both ways, a slope bound still open
                         INCOMPLETE  pairs one way only    ABSENT  no pair
                         FAIL  pairs contradicting each other (counted in failures), until new pairs agree

                component a (2 nodes), reference clock a, factors from every link;
                offsets and bounds at 8000040050 on a's clock (the end of the pairs):
                node  drift (ppm)  offset (ms)     bound  tree bound       grows
                a          +0.000        0.000      0 ns        0 ns      0 ns/s
                b         -53.368       -2.861  51.24 µs    51.24 µs  14.95 µs/s

                tree link (a~b)  weight (slope-accuracy)
                a~b                            29.90 ppm

                drift: slope - 1 of t_ref = slope * t + offset (> 0: the node's clock is slower than the reference's)
                offset: the reference's time minus the node's; bound: guaranteed then, growing by 'grows' per second
                  of the node's clock away from then; tree bound: the same along the tree path
                """, report(List.of()).toText(8));
    }

    @Test
    void textSaysWhichTimeTheBoundsAndOffsetsHoldAt() {
        String text = report(List.of(3_000_000_000L, 5_000_000_000L)).toText(8);
        assertTrue(text.contains("links (bounds at each --at time, on a's clock):"), text);
        assertTrue(text.contains("offsets and bounds at 5000000000 on a's clock (the latest --at):"), text);
        assertEquals(2, text.lines().filter(l -> l.startsWith("a~b         ACCURATE")).count(), text);
    }
}
